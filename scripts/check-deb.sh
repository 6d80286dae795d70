#!/usr/bin/env bash
# check-deb.sh — checks in a .deb what scripts/package-deb.sh promises of it, whatever the umask and DEBEMAIL it was
# built with (CI builds it under umask 000): every directory 0755, every file 0644 but the two executables (0755),
# all owned by root, /usr/bin/pinctl the one link; the control file exactly the fields package-deb.sh writes, so no
# value put in one (the maintainer's name or e-mail address) added another.
#
# Usage: scripts/check-deb.sh pinctl_VERSION_ARCH.deb      Exit 0, or 1 listing every difference.
set -euo pipefail
deb=${1:?usage: scripts/check-deb.sh pinctl_VERSION_ARCH.deb}
problems=()

# `tar -tv` lines: MODE OWNER SIZE DATE TIME PATH [-> TARGET]; no path in the package has a space.
check_modes() {   # WHICH (data or control), then the listing on stdin
    local mode owner size date time path rest want
    while read -r mode owner size date time path rest; do
        case $mode in
            d*) want=drwxr-xr-x ;;
            l*) [[ $1/$path == data/./usr/bin/pinctl ]] || problems+=("$1 $path: a link"); continue ;;
            -*) case $1/$path in
                    data/./usr/lib/pinctl/pinctl | data/./usr/lib/pinctl/pinctl-serve) want=-rwxr-xr-x ;;
                    *) want=-rw-r--r-- ;;
                esac ;;
            *) problems+=("$1 $path: neither a file, a directory nor a link ($mode)"); continue ;;
        esac
        [[ $mode == "$want" ]] || problems+=("$1 $path: $mode, not $want")
        [[ $owner == root/root ]] || problems+=("$1 $path: owned by $owner, not root/root")
    done
}
# tar reads to the end (--ignore-zeros), past the archive's end marker: stopping there would leave dpkg-deb writing
# the padding after it into a closed pipe.
check_modes data < <(dpkg-deb --fsys-tarfile "$deb" | tar --list --verbose --ignore-zeros --file -)
check_modes control < <(dpkg-deb --ctrl-tarfile "$deb" | tar --list --verbose --ignore-zeros --file -)

# The control file's fields, in order: a line that does not continue a field (a space first) starts one.
fields=$(dpkg-deb --field "$deb" | sed -n 's/^\([^ ][^:]*\):.*/\1/p' | paste -sd ' ')
expected="Package Version Architecture Maintainer Installed-Size Depends Section Priority Description"
[[ $fields == "$expected" ]] || problems+=("control: the fields are '$fields', not '$expected'")

if [ ${#problems[@]} -gt 0 ]; then
    printf 'check-deb.sh: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "check-deb.sh: $deb: modes, owners and control fields as package-deb.sh makes them"
