#!/usr/bin/env bash
# build-stores.sh — build pinctl's platform store snapshots (DESIGN §12, docs/platform-stores.md) from the public
# histories of AOSP's system/ca-certificates (and libcore's before it), the trust store observatory's records of AOSP,
# Apple's security_certificates, and from Debian's ca-certificates.
#
# The snapshot data is not committed to this repository: this script builds it into a directory you name, and
# pinctl reads it from `--stores DIR` or PINCTL_STORES.
#
# Usage:
#   scripts/build-stores.sh --out DIR [--aosp GIT_DIR] [--libcore GIT_DIR] [--observatory GIT_DIR]
#                           [--apple GIT_DIR] [--mozilla DIR|none] [--mozilla-version VERSION]
#                           [--android-ref API=REF]... [--force]
#
#   --aosp GIT_DIR    a clone (or bare git directory) of AOSP's system/ca-certificates
#                     (https://android.googlesource.com/platform/system/ca-certificates) with its release tags
#                     (android-7.0.0_r1, …); `files/*.0` at each tag are that API level's roots.
#   --libcore GIT_DIR a clone of AOSP's libcore (https://android.googlesource.com/platform/libcore): API 14-23 are
#                     taken from `luni/src/main/files/cacerts` at their tags there (the store lived in libcore
#                     until system/ca-certificates was split out of it in 2015).
#   --observatory GIT_DIR
#                     a clone of https://github.com/nabla-c0d3/trust_stores_observatory, for the levels named by
#                     `tso:` refs (its history of trust_stores/google_aosp.yaml records AOSP's store per release).
#   --android-ref API=REF
#                     take API level API from REF instead of its release tag; REF is one of
#                       REV or aosp:REV           a revision of --aosp (for mirrors without AOSP's tags)
#                       libcore:REV               a revision of --libcore
#                       tso:COMMIT:RELEASE        the record of AOSP release RELEASE (14.0.0_r2) that --observatory's
#                                                 COMMIT holds; each PEM is checked against its name and the record
#   --apple GIT_DIR   a clone of https://github.com/apple-oss-distributions/security_certificates with its tags;
#                     `certificates/roots/*` at each tag are the trusted roots (removed and distrusted roots are
#                     elsewhere in the tree, so absent from the snapshot).
#   --mozilla DIR     Debian's ca-certificates (default /usr/share/ca-certificates/mozilla when it exists; `none`
#                     to leave mozilla out).
#   --mozilla-version VERSION
#                     the Debian ca-certificates version DIR holds (20230311+deb12u1); default: the installed
#                     package's, when DIR is where it puts its certificates.
#   --force           replace DIR's snapshot when DIR already holds one (FORMAT, roots/, the platform files and
#                     apple-ct-logs.cnf; other files in DIR stay).
#
# A version whose tag the repositories lack is skipped with a warning naming the tag (pass --android-ref for it).
# docs/platform-stores.md gives the command that rebuilds the team's snapshot.
# Needs bash, git, python3 (standard library only) and the openssl CLI.
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
command -v openssl >/dev/null || { echo "build-stores.sh: openssl not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "build-stores.sh: python3 not found" >&2; exit 2; }
command -v git >/dev/null || { echo "build-stores.sh: git not found" >&2; exit 2; }

# No __pycache__ beside the modules build_stores.py imports: scripts/ stays as committed.
PYTHONDONTWRITEBYTECODE=1 exec python3 "$SCRIPT_DIR/build_stores.py" "$@"
