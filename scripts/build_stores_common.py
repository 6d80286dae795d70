"""What every source of scripts/build_stores.py shares: messages, git and openssl, the roots/ folder, a block."""
import datetime
import hashlib
import os
import re
import subprocess
import sys


def fail(message):
    print(f"build-stores.sh: {message}", file=sys.stderr)
    sys.exit(2)


def warn(message):
    print(f"build-stores.sh: warning: {message}", file=sys.stderr)


def git(git_dir, *arguments, binary=False):
    result = subprocess.run(["git", "--git-dir", git_dir, *arguments], capture_output=True)
    if result.returncode != 0:
        return None
    return result.stdout if binary else result.stdout.decode("utf-8", "replace")


def git_directory(path):
    """The git directory of a clone or a bare repository at `path`."""
    for candidate in (os.path.join(path, ".git"), path):
        if git(candidate, "rev-parse", "--git-dir") is not None:
            return candidate
    fail(f"{path}: not a git repository")


def excerpt(text, limit=40):
    """At most `limit` characters of untrusted text, escaped, for an error message."""
    text = str(text)
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


def openssl(arguments, data):
    result = subprocess.run(["openssl", *arguments], input=data, capture_output=True)
    return result.stdout if result.returncode == 0 else None


class Roots:
    """Every root seen, once, by the SHA-256 of its key; a certificate's DER gives its id."""

    def __init__(self, directory):
        self.directory = directory
        self.by_certificate = {}
        self.by_blob = {}
        self.taken = set()

    def add(self, data, origin):
        # A file outside git (mozilla), keyed by its SHA-256; git blobs are keyed by their object id (tree_roots).
        blob = hashlib.sha256(data).hexdigest()
        if blob not in self.by_blob:
            self.by_blob[blob] = self.read(data, origin)
        return self.by_blob[blob]

    def read(self, data, origin):
        der = openssl(["x509", "-inform", "PEM", "-outform", "DER"], data) if b"-----BEGIN" in data else None
        der = der or openssl(["x509", "-inform", "DER", "-outform", "DER"], data)
        if not der:
            warn(f"{origin}: not a certificate; skipped")
            return None
        certificate = hashlib.sha256(der).hexdigest()
        if certificate in self.by_certificate:
            return self.by_certificate[certificate]
        public_key = openssl(["x509", "-inform", "DER", "-pubkey", "-noout"], der)
        spki = public_key and openssl(["pkey", "-pubin", "-outform", "DER"], public_key)
        if not spki:
            warn(f"{origin}: cannot read its public key; skipped")
            return None
        identifier = hashlib.sha256(spki).hexdigest()
        if identifier in self.taken:
            identifier += "-" + certificate[:8]
        self.taken.add(identifier)
        pem = openssl(["x509", "-inform", "DER", "-outform", "PEM"], der)
        with open(os.path.join(self.directory, identifier + ".pem"), "wb") as file:
            file.write(pem)
        self.by_certificate[certificate] = identifier
        return identifier


def tree_roots(git_dir, revision, folder, pattern, roots, origin):
    """The ids of the roots in `folder` at `revision` whose names match `pattern`, each blob read once; None when
    `revision` has no such folder."""
    listing = git(git_dir, "ls-tree", f"{revision}:{folder}")
    if listing is None:
        return None
    identifiers = []
    for line in listing.splitlines():
        info, _, name = line.partition("\t")
        kind, blob = info.split()[1:3]
        if kind != "blob" or not re.fullmatch(pattern, name):
            continue
        if blob not in roots.by_blob:
            data = git(git_dir, "cat-file", "blob", blob, binary=True)
            roots.by_blob[blob] = roots.read(data, f"{origin}:{folder}/{name}")
        identifiers.append(roots.by_blob[blob])
    return [identifier for identifier in identifiers if identifier]


def commit_of(git_dir, revision):
    line = git(git_dir, "log", "-1", "--format=%H %cs", f"{revision}^{{commit}}")
    return tuple(line.split()) if line else None


def block(version, label, date, source, identifiers):
    """One version's block, refused unless pinctl reads it back as written (StoreSnapshotFile)."""
    where = f"version {version}"
    identifiers = sorted(set(identifiers))  # once: mozilla's are a filter(), which a second pass finds empty
    lines = [f"version {version}", f"label {text_value(label, where)}", f"date {date}",
             f"source {text_value(source, where)}"]
    try:
        datetime.datetime.strptime(date, "%Y-%m-%d")
    except ValueError:
        fail(f"{where}: {excerpt(date)} is not a day YYYY-MM-DD")
    if len(identifiers) > MAXIMUM_ROOTS:
        fail(f"{where}: more than the {MAXIMUM_ROOTS} roots pinctl reads")
    lines += [f"root {identifier}" for identifier in identifiers]
    return "\n".join(lines) + "\n"


# The bounds of what pinctl reads (CTLogListSyntax.maximumLogs, CTLogListFile.maximumKeyLength,
# StoreSnapshotFile.maximumRoots).
MAXIMUM_LOGS = 1000
MAXIMUM_KEY = 4096
MAXIMUM_ROOTS = 10000
# What pinctl reads of a label, a source, a log's description or operator (StoreSnapshotFile.maximumTextLength and
# CTLogListFile.maximumTextLength): at most this many characters, printable.
MAXIMUM_TEXT = 256


def text_value(text, where):
    """`text` on one line, its runs of white space one space each; refused unless pinctl takes it as it is: printable
    (no control, format or separator character but the space: what UntrustedText.isPrintable takes) and short."""
    text = " ".join(str(text).split())
    if not text.isprintable() or len(text) > MAXIMUM_TEXT:
        fail(f"{where}: {excerpt(text)}: not printable text of at most {MAXIMUM_TEXT} characters, which pinctl refuses")
    return text
