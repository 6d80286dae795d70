#!/usr/bin/env bash
# The release build README installs, and the one the Debian package, the release tests and the benchmarks measure:
# the Swift standard library linked statically, every Swift function in a section of its own. Extra arguments go to
# `swift build` (--product, --scratch-path).
#
# Why sections of their own (-function-sections, for the dependencies too, which only a command-line flag reaches):
# Package.swift's release link lays pinctl-serve's functions out in the order Linker/pinctl-serve.order gives, the
# ones a probe runs first and together, and the linker can only move whole sections. Without the flag a module's
# functions share one section per source file, and the exporter maps 12.7 MB of its code to run 1.6 MB of it.
# The linker also drops more unused code: pinctl is 0.3 MB smaller.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections "$@"
