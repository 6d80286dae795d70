#!/usr/bin/env bash
# setup.sh — installs the Debian packages pinctl needs, and only those that are missing, so that README's commands
# work on a fresh machine as written. scripts/demo.sh, README's test command and .ci/run call it.
#
#   scripts/setup.sh           building and running pinctl (and the demo)
#   scripts/setup.sh --tests   and the test suite: its tools, then the SARIF schema (scripts/fetch-test-tools.sh)
#   scripts/setup.sh --ci      and what CI runs besides: lintian, and Prometheus for scripts/serve-prometheus.sh
#                              (its promtool comes with --tests already)
#   scripts/setup.sh --bench   and the tools of the benchmarks: wrk, nginx, and the blackbox exporter pinctl serve
#                              is timed against (scripts/bench-serve.sh, scripts/bench-exporter.sh); CI runs neither
#   scripts/setup.sh --list    prints what it would install, installs nothing
#
# apt-get runs as root, or through sudo when not root. Swift itself is not a Debian package: without it the script
# stops, saying where to get it. Exit 0 when everything asked for is there; 1, with the reason, when it cannot be.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

tests=false ci=false bench=false list=false
for argument in "$@"; do
    case $argument in
        --tests) tests=true ;;
        --ci) tests=true ci=true ;;
        --bench) bench=true ;;
        --list) list=true ;;
        -h | --help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "setup.sh: unknown option '$argument' (expected --tests, --ci, --bench, --list)" >&2; exit 2 ;;
    esac
done

# "package[/command]: why". A package is there when dpkg has it installed, or, when a command is named, when that
# command is on PATH (a JDK or Prometheus installed some other way does). Build and run: the C libraries pinctl
# links, with their headers, and the tools the demo uses.
build=(
    "libssl-dev: OpenSSL 3, the one X.509 and TLS engine"
    "libxml2-dev: Android's network_security_config.xml"
    "libpsl-dev: TrustKit's public-suffix rules"
    "publicsuffix: the list libpsl reads"
    "libjansson-dev: TrustKit's configuration as JSON"
    "libyaml-dev: pinctl.yaml, read and written by libyaml"
    "libarchive-dev: the zip archives apps are built into (an .ipa), read by libarchive"
    "pkg-config/pkg-config: finds those libraries for the build"
    "openssl/openssl: the demo's TLS server and the certificate scripts"
    "python3/python3: the demo picks a free port with it"
)
test_tools=(
    "python3-jsonschema: one test validates pinctl's SARIF against the schema"
    "python3-pip: fetch-test-tools.sh downloads the SARIF schema with it"
    "bsdutils/script: a test runs pinctl on a pseudo-terminal"
    "strace/strace: a test interrupts extract in the middle of its swap"
    "default-jdk-headless/javac: tests compile pinctl's Java exports"
    "git/git: tests build store snapshots from small git histories"
    "apktool/apktool: tests build the APKs they import (scripts/make-apk.sh)"
    "zipalign/zipalign: scripts/make-apk.sh aligns the APKs"
    "apksigner/apksigner: scripts/make-apk.sh signs the APKs"
    "prometheus: a test runs promtool test rules on the alerting rules pinctl ships"
    "chromium/chromium: tests render serve's fleet view in headless Chromium"
)
ci_tools=(
    "prometheus/prometheus: scripts/serve-prometheus.sh scrapes pinctl serve with it"
    "lintian/lintian: scripts/package-deb.sh checks the package with it"
)

bench_tools=(
    "wrk/wrk: the benchmarks' HTTP load on the exporters' /probe"
    "nginx/nginx: bench-exporter.sh's TLS target (openssl s_server, one handshake at a time, would set the pace)"
    "prometheus-blackbox-exporter/prometheus-blackbox-exporter: scripts/bench-exporter.sh times pinctl serve against it"
)

wanted=("${build[@]}")
$tests && wanted+=("${test_tools[@]}")
$ci && wanted+=("${ci_tools[@]}")
$bench && wanted+=("${bench_tools[@]}")

missing=()
for entry in "${wanted[@]}"; do
    name=${entry%%:*} package=${name%%/*}
    if [[ $name == */* ]]; then
        command -v "${name#*/}" >/dev/null 2>&1 && continue
    else
        # "install ok installed": a package removed but not purged is still known to dpkg, with another status.
        status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
        [[ $status == "install ok installed" ]] && continue
    fi
    missing+=("$package:${entry#*:}")
done

if ! command -v swift >/dev/null 2>&1; then
    echo "setup.sh: swift is not on PATH. pinctl needs Swift 6.2 or later, which Debian does not package:" >&2
    echo "  install it from https://www.swift.org/install/linux/ (or swiftly), then run this again." >&2
    exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
    $list && echo "setup.sh: nothing to install"
else
    echo "setup.sh: ${#missing[@]} Debian package(s) missing:" >&2
    for entry in "${missing[@]}"; do echo "  ${entry%%:*} —${entry#*:}" >&2; done
    $list && exit 0
    echo "setup.sh: installing them with apt-get" >&2
    command -v apt-get >/dev/null 2>&1 || {
        echo "setup.sh: apt-get not found: install the packages above with this system's package manager" >&2
        exit 1
    }
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || {
            echo "setup.sh: not root and no sudo: run this as root, or install the packages above" >&2
            exit 1
        }
        sudo=(sudo)
    fi
    packages=()
    for entry in "${missing[@]}"; do packages+=("${entry%%:*}"); done
    # No recommends: prometheus would bring the node exporter and more, which nothing here uses.
    if ! "${sudo[@]}" apt-get update -qq \
        || ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${packages[@]}"; then
        echo "setup.sh: apt-get could not install: ${packages[*]} (see its messages above)" >&2
        exit 1
    fi
fi

if $tests && ! $list; then
    "$root/scripts/fetch-test-tools.sh" >/dev/null
fi
