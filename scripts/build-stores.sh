#!/usr/bin/env bash
# build-stores.sh — build pinctl's platform store snapshots (DESIGN §12, docs/platform-stores.md) from the public
# histories of AOSP's system/ca-certificates and Apple's security_certificates, and from Debian's ca-certificates.
#
# The snapshot data is not committed to this repository: this script builds it into a directory you name, and
# pinctl reads it from `--stores DIR` or PINCTL_STORES.
#
# Usage:
#   scripts/build-stores.sh --out DIR [--aosp GIT_DIR] [--apple GIT_DIR] [--mozilla DIR|none]
#                           [--android-ref API=REV]... [--force]
#
#   --aosp GIT_DIR    a clone (or bare git directory) of AOSP's system/ca-certificates
#                     (https://android.googlesource.com/platform/system/ca-certificates) with its release tags
#                     (android-7.0.0_r1, …); `files/*.0` at each tag are that API level's roots.
#   --android-ref API=REV
#                     take API level API from revision REV instead of its tag (for mirrors without AOSP's tags).
#   --apple GIT_DIR   a clone of https://github.com/apple-oss-distributions/security_certificates with its tags;
#                     `certificates/roots/*` at each tag are the trusted roots (removed and distrusted roots are
#                     elsewhere in the tree, so absent from the snapshot).
#   --mozilla DIR     Debian's ca-certificates (default /usr/share/ca-certificates/mozilla when it exists; `none`
#                     to leave mozilla out).
#   --force           replace DIR's snapshot files when DIR already holds a snapshot.
#
# A version whose tag the repository lacks is skipped with a warning naming the tag (pass --android-ref for it).
# Needs bash, git, python3 (standard library only) and the openssl CLI.
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
command -v openssl >/dev/null || { echo "build-stores.sh: openssl not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "build-stores.sh: python3 not found" >&2; exit 2; }
command -v git >/dev/null || { echo "build-stores.sh: git not found" >&2; exit 2; }

exec python3 "$SCRIPT_DIR/build_stores.py" "$@"
