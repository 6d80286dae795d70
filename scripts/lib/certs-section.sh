# certs-section.sh — sourced by the certificate scripts: the last steps every one of them takes once its files are
# made and self-checked (make-path-certs.sh, make-platform-certs.sh, make-ct-certs.sh; the older ones still carry
# their own copy).

# check_catalogue DIR SECTION_FILE: the files in the current directory are exactly those the catalogue's table lists
# as `DIR/NAME`.
check_catalogue() {
    local dir=$1 section=$2
    diff <(ls | sed "s|^|$dir/|" | LC_ALL=C sort) \
        <(sed -n "s/^| \`\\($dir\\/[^\`]*\\)\` |.*/\\1/p" "$section" | LC_ALL=C sort) >/dev/null
}

# install_certs OUT DEST README SECTION_TITLE SECTION_FILE: replaces DEST with OUT, and the section SECTION_TITLE of
# README with SECTION_FILE where it is (before the limbo section when new: make-limbo-certs.sh rewrites everything
# from its own section to the end). The new README is written beside it first, then moved over it.
install_certs() {
    local out=$1 dest=$2 readme=$3 title=$4 section=$5
    rm -rf -- "$dest"
    cp -R -- "$out" "$dest"
    awk -v section="$title" -v file="$section" '
        function insert() { while ((getline line < file) > 0) print line; print ""; done = 1 }
        $0 == section { insert(); skipping = 1; next }
        skipping && /^## / { skipping = 0 }
        skipping { next }
        !done && /^## certs\/limbo\// { insert() }
        { print }
        END { if (!done) { print ""; insert() } }
    ' "$readme" >"$readme.new"
    mv -- "$readme.new" "$readme"
}
