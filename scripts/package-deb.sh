#!/usr/bin/env bash
# package-deb.sh — makes pinctl_VERSION_ARCH.deb from the release build (README's "Build and install"):
#   /usr/lib/pinctl/pinctl and pinctl-serve (stripped), /usr/bin/pinctl a link to the first, so that `pinctl serve`
#   finds pinctl-serve beside the binary it runs from; a man page for pinctl and each subcommand, made from the
#   ArgumentParser definitions by swift-argument-parser's generate-manual; bash, zsh and fish completions from
#   `pinctl --generate-completion-script`; Depends: the run-time packages README names; changelog and copyright.
# Then it runs lintian on the package when lintian is installed (scripts/setup.sh --ci installs it) and stops on
# an error. The .deb is written to the repository root (or --out DIR); an existing one is replaced only with
# --force. Every directory of the package is 0755 and every file 0644 (the two executables 0755), whatever the umask.
#
# Usage: scripts/package-deb.sh [--out DIR] [--force]     (DEBFULLNAME and DEBEMAIL name the maintainer)
set -euo pipefail
# The package's files and directories get their modes set below; this makes the rest (the build's files, the .deb
# itself) what they would be for anyone, under any umask the script is started with.
umask 022
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

out=$root force=false
while [ $# -gt 0 ]; do
    case $1 in
        --out) [ $# -ge 2 ] || { echo "package-deb.sh: --out needs a directory" >&2; exit 2; }; out=$2; shift ;;
        --force) force=true ;;
        -h | --help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "package-deb.sh: unknown option '$1' (expected --out DIR, --force)" >&2; exit 2 ;;
    esac
    shift
done

# DEBFULLNAME and DEBEMAIL go into the control file's Maintainer field and the changelog's trailer, both read a line
# at a time: a line break in one would add fields of its own (`Pre-Depends:`) to the package. Each is refused unless
# it is one line of text in the shape its field takes, before anything is built.
maintainer_name=${DEBFULLNAME:-pinctl developers}
maintainer_email=${DEBEMAIL:-pinctl@example.org}
refuse_maintainer() {   # VARIABLE WHAT-IT-MUST-BE
    echo "package-deb.sh: $1 must be $2: it names the package's maintainer in its control file and changelog" >&2
    exit 2
}
check_maintainer() {
    local LC_ALL=C   # bytes: a C0 control or DEL is [[:cntrl:]], a C1 control is \xc2 then \x80-\x9f in UTF-8
    # A name in UTF-8 as Debian's control files are, with no control character and none of `<`, `>` and `,`, which
    # end the name within the field (or the field, for the tools that read a list of maintainers).
    local name_shape='^[^[:space:]<>,]([^<>,]*[^[:space:]<>,])?$'
    # An address as RFC 5322's dot-atom local part and a host name: ASCII, no space, no control character.
    local email_shape="^[A-Za-z0-9.!#\$%&'*+/=?^_\`{|}~-]+@[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?\$"
    if [[ $maintainer_name == *[[:cntrl:]]* || $maintainer_name == *$'\xc2'[$'\x80'-$'\x9f']* ]] \
        || ! [[ $maintainer_name =~ $name_shape ]] \
        || ! printf '%s' "$maintainer_name" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then
        refuse_maintainer DEBFULLNAME "one line of UTF-8 text without control characters, '<', '>' or ',', \
and without spaces at either end"
    fi
    [[ $maintainer_email =~ $email_shape ]] \
        || refuse_maintainer DEBEMAIL "one e-mail address, user@host, in ASCII without spaces or control characters"
}
check_maintainer
maintainer="$maintainer_name <$maintainer_email>"

[ -d "$out" ] || { echo "package-deb.sh: --out $out is not a directory" >&2; exit 2; }

scripts/setup.sh
# The release build README installs, in .build-release (scripts/test-release.sh shares it), and generate-manual.
scripts/build-package-binaries.sh
bin=.build-release/release
generate_manual=$bin/generate-manual

version=$("$bin/pinctl" --version | sed -n '1s/^pinctl //p')
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "package-deb.sh: cannot read the version ('$version')" >&2; exit 1; }
arch=$(dpkg --print-architecture)
deb="$out/pinctl_${version}_${arch}.deb"
if [ -e "$deb" ] && ! $force; then
    echo "package-deb.sh: $deb exists; --force replaces it" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pinctl-deb.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
pkg="$work/pinctl"
install -d "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/usr/lib/pinctl" "$pkg/usr/share/man/man1" "$pkg/usr/share/doc/pinctl" \
    "$pkg/usr/share/bash-completion/completions" "$pkg/usr/share/zsh/vendor-completions" \
    "$pkg/usr/share/fish/vendor_completions.d"
install -s -m 755 "$bin/pinctl" "$bin/pinctl-serve" "$pkg/usr/lib/pinctl/"
# The compilers' version strings: nothing at run time reads them.
objcopy --remove-section .comment "$pkg/usr/lib/pinctl/pinctl"
objcopy --remove-section .comment "$pkg/usr/lib/pinctl/pinctl-serve"
ln -s ../lib/pinctl/pinctl "$pkg/usr/bin/pinctl"

# Man pages: pinctl.1 and pinctl.SUBCOMMAND.1, dated by the commit (reproducible), compressed as Debian wants.
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
"$generate_manual" "$bin/pinctl" --multi-page --date "$date" \
    --authors "the pinctl developers" --output-directory "$pkg/usr/share/man/man1" >/dev/null
# `pinctl help` is ArgumentParser's own help command: its page says nothing the others do not.
rm -f "$pkg/usr/share/man/man1/pinctl.help.1"
# Made the way man-db and lintian read pages: pinctl.config.export.1 becomes pinctl-config-export.1 (as git's
# pages are named), whose NAME is that one word, so that whatis can index it, while its SYNOPSIS still shows the
# command as typed; descriptions without quotes, and a paragraph mark where a blank line would be.
for page in "$pkg"/usr/share/man/man1/pinctl.*.1; do
    words=$(basename "$page" .1 | tr . ' ')
    name=${words// /-}
    sed -e "s/^\.Dt [^ ]* 1\$/.Dt ${name^^} 1/" \
        -e "0,/^\.Nm \"$words\"\$/s//.Nm $name/" \
        -e "s/^\.Nm\$/.Nm \"$words\"/" \
        "$page" >"$(dirname "$page")/$name.1"
    rm -f "$page"
done
for page in "$pkg"/usr/share/man/man1/*.1; do
    sed -i -e 's/^\.Nd "\(.*\)"$/.Nd \1/' -e 's/^$/.Pp/' -e '/^\.Xr pinctl\.help 1/d' "$page"
    # SEE ALSO names the pages by their new names.
    perl -pi -e 's/^(\.Xr )(pinctl\.[a-z.-]+)/$1 . ($2 =~ tr|.|-|r)/e' "$page"
done
gzip -9n "$pkg"/usr/share/man/man1/*.1

# bash-completion sources its scripts: the #! line ArgumentParser writes first has no use there.
"$bin/pinctl" --generate-completion-script bash | sed '1{/^#!/d}' >"$pkg/usr/share/bash-completion/completions/pinctl"
"$bin/pinctl" --generate-completion-script zsh >"$pkg/usr/share/zsh/vendor-completions/_pinctl"
"$bin/pinctl" --generate-completion-script fish >"$pkg/usr/share/fish/vendor_completions.d/pinctl.fish"
chmod 644 "$pkg"/usr/share/*/completions/* "$pkg"/usr/share/zsh/vendor-completions/* \
    "$pkg"/usr/share/fish/vendor_completions.d/*

# The platform store snapshot (DESIGN §12, "Where the data lives"): the team's ../shared/stores beside the repository,
# built by scripts/build-stores.sh from public sources and never committed, goes in as /usr/share/pinctl/stores,
# where pinctl finds it with no --stores or PINCTL_STORES; ../shared/stores.md, its provenance version by version, as
# /usr/share/doc/pinctl/stores.md.gz (compressed, as Debian wants documentation over 4 kB). Only the files of the
# format (docs/platform-stores.md) are copied, with their modes set here, not taken from the shared folder.
add_stores() {  # PKG
    local pkg=$1 shared
    shared=$(cd "$root/.." && pwd)/shared
    if [ ! -f "$shared/stores/FORMAT" ]; then
        echo "package-deb.sh: no store snapshot in $shared/stores: the package is built without one, and pinctl" \
            "--platform will need --stores DIR or PINCTL_STORES (scripts/build-stores.sh, docs/platform-stores.md)" >&2
        return 0
    fi
    local stores="$pkg/usr/share/pinctl/stores" file
    install -d -m 755 "$pkg/usr/share/pinctl" "$stores" "$stores/roots"
    for file in "$shared"/stores/FORMAT "$shared"/stores/*.txt "$shared"/stores/apple-ct-logs.cnf; do
        if [ -f "$file" ]; then install -m 644 "$file" "$stores/"; fi
    done
    find "$shared/stores/roots" -maxdepth 1 -type f -name '*.pem' -exec install -m 644 -t "$stores/roots" {} +
    # The index of the roots' names, made here from the copy (a snapshot built before the index has none), so that
    # pinctl reads only the roots a chain can reach.
    scripts/index-stores.sh --force "$stores" >/dev/null
    chmod 644 "$stores/roots.index"
    if [ -f "$shared/stores.md" ]; then
        gzip -9nc "$shared/stores.md" >"$pkg/usr/share/doc/pinctl/stores.md.gz"
        chmod 644 "$pkg/usr/share/doc/pinctl/stores.md.gz"
    fi
    echo "package-deb.sh: the store snapshot of $shared/stores goes in as /usr/share/pinctl/stores" \
        "($(find "$stores/roots" -type f | wc -l) roots; provenance: /usr/share/doc/pinctl/stores.md.gz)" >&2
}
add_stores "$pkg"

# The alerting rules for pinctl serve (examples/prometheus/pinctl-alerts.yml, tested with promtool in the suite), where
# a Prometheus's rule_files can name them: /usr/share/pinctl/prometheus/pinctl-alerts.yml.
install -d -m 755 "$pkg/usr/share/pinctl" "$pkg/usr/share/pinctl/prometheus"
install -m 644 examples/prometheus/pinctl-alerts.yml "$pkg/usr/share/pinctl/prometheus/"

commit=$("$bin/pinctl" --version | sed -n '2s/^commit //p')
changed=$(git log -1 --format=%cD 2>/dev/null || date -uR)
# The changelog's other values are the build's own; each is still one line, or it is not written.
[[ $commit =~ ^([0-9a-f]{7,40}(, with changes not committed)?|unknown)$ && $changed != *[[:cntrl:]]* ]] \
    || { echo "package-deb.sh: cannot read the commit or its date ('$commit', '$changed')" >&2; exit 1; }
cat >"$work/changelog" <<EOF
pinctl ($version) unstable; urgency=medium

  * Built from commit $commit.

 -- $maintainer  $changed
EOF
gzip -9nc "$work/changelog" >"$pkg/usr/share/doc/pinctl/changelog.gz"
install -m 644 packaging/copyright "$pkg/usr/share/doc/pinctl/copyright"

# Depends: exactly the run-time packages README's "Build and install" names, read from it.
depends=$(sed -n 's/^Depends: //p' README.md)
[[ -n $depends && $depends != *$'\n'* ]] || { echo "package-deb.sh: README.md needs one 'Depends: …' line" >&2; exit 1; }
size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
cat >"$pkg/DEBIAN/control" <<EOF
Package: pinctl
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Section: net
Priority: optional
Description: TLS pinning and trust evaluation for the apps in the field
 pinctl judges a server's certificate chain as the pinning libraries apps ship
 do (AFNetworking, Alamofire, TrustKit, OkHttp, Android's Network Security
 Configuration), for every app of a policy file at once, live or offline, so
 that a certificate rotation is checked in CI before it ships. It runs on
 OpenSSL 3; pinctl serve exports the verdicts as Prometheus metrics.
EOF

(cd "$pkg" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
# Modes set, not inherited from the umask the script was started with or from the tools that wrote the files
# (generate-manual, gzip, the shell's redirections): directories 0755, files 0644, the two executables 0755.
find "$pkg" -type d -exec chmod 755 {} +
find "$pkg" -type f -exec chmod 644 {} +
chmod 755 "$pkg/usr/lib/pinctl/pinctl" "$pkg/usr/lib/pinctl/pinctl-serve"
dpkg-deb --build --root-owner-group "$pkg" "$work/pinctl.deb" >/dev/null
if command -v lintian >/dev/null 2>&1; then
    # Errors stop the package; warnings are printed (README's packaging notes say why those that remain do).
    lintian --fail-on error --no-tag-display-limit "$work/pinctl.deb" >&2 \
        || { echo "package-deb.sh: lintian found errors" >&2; exit 1; }
else
    echo "package-deb.sh: lintian is not installed: the package was not checked (scripts/setup.sh --ci)" >&2
fi
mv -f "$work/pinctl.deb" "$deb"
echo "$deb"
