"""Writes a snapshot directory's index of root names, DIR/roots.index (docs/platform-stores.md): a line a root,
`ID SUBJECT ISSUER`, the two being OpenSSL's name hashes as `openssl x509 -subject_hash -issuer_hash` prints them.
pinctl then reads only the roots a chain can reach, instead of every root of every version named for its subject.

scripts/build_stores.py writes it with every snapshot; run through scripts/index-stores.sh, it indexes a snapshot
built before the index existed, or a copy (the Debian package's). It is written beside the roots, under a temporary
name first, so that a failed run leaves no half index."""
import concurrent.futures
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True

FILE_NAME = "roots.index"
ROOT_FILE = re.compile(r"^([0-9a-f]{64}(-[0-9a-f]{8})?)\.pem$")
HASH = re.compile(r"^[0-9a-f]{8}$")


def names(path):
    """The subject and issuer hashes of the certificate at `path`, or an error naming it."""
    result = subprocess.run(["openssl", "x509", "-in", path, "-noout", "-subject_hash", "-issuer_hash"],
                            capture_output=True, text=True)
    lines = result.stdout.split()
    if result.returncode != 0 or len(lines) != 2 or not all(HASH.match(line) for line in lines):
        raise SystemExit(f"index-stores: {path}: openssl cannot read its names ({result.stderr.strip()[:200]})")
    return lines


def write_index(directory):
    """Writes DIR/roots.index for every root in DIR/roots; returns how many it lists."""
    roots = os.path.join(directory, "roots")
    lines = ["# pinctl store snapshot: the roots' name hashes (written by scripts/index-stores.sh; "
             "docs/platform-stores.md)"]
    ids = [match.group(1) for match in map(ROOT_FILE.match, sorted(os.listdir(roots))) if match]
    # One openssl process a root, as many at once as there are processors.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        found = pool.map(names, [os.path.join(roots, id + ".pem") for id in ids])
        lines += [f"{id} {subject} {issuer}" for id, (subject, issuer) in zip(ids, found)]
    path = os.path.join(directory, FILE_NAME)
    partial = path + ".partial"
    try:
        with open(partial, "w") as file:
            file.write("\n".join(lines) + "\n")
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    return len(lines) - 1


def main():
    arguments = sys.argv[1:]
    force = "--force" in arguments
    arguments = [argument for argument in arguments if argument != "--force"]
    if len(arguments) != 1 or arguments[0].startswith("-"):
        raise SystemExit("usage: scripts/index-stores.sh [--force] DIR   (DIR: a snapshot directory, with roots/)")
    directory = arguments[0]
    if not os.path.isfile(os.path.join(directory, "FORMAT")) or not os.path.isdir(os.path.join(directory, "roots")):
        raise SystemExit(f"index-stores: {directory} is not a snapshot directory (no FORMAT or roots/); "
                         "build one with scripts/build-stores.sh")
    if os.path.exists(os.path.join(directory, FILE_NAME)) and not force:
        raise SystemExit(f"index-stores: {os.path.join(directory, FILE_NAME)} exists; --force replaces it")
    count = write_index(directory)
    print(f"index-stores: {count} roots in {os.path.join(directory, FILE_NAME)}")


if __name__ == "__main__":
    main()
