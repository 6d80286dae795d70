"""An Android level from the trust store observatory (github.com/nabla-c0d3/trust_stores_observatory), for
scripts/build_stores.py: the levels whose AOSP history is not at hand (API 34 on, in the mirrors we know).

Its fetcher (google_aosp_fetcher.py) clones AOSP's system/ca-certificates, checks out the newest android-* tag and
records `files/*` in trust_stores/google_aosp.yaml: the release (`version: 14.0.0_r2`), `date_fetched`, and each
trusted certificate's SHA-256 (`fingerprint`), whose PEM is certificates/<sha256>.pem. Every commit of that file's
history is one record; a level is taken from the commit that recorded its release."""
import base64
import hashlib
import re

from build_stores_common import excerpt, fail, git

YAML_PATH = "trust_stores/google_aosp.yaml"

# A release's publication date, where a source dates its tag; any other release is dated by the day the observatory
# recorded it, by which the tag existed.
RELEASE_DATES = {
    # Android 15's source released to AOSP on 2024-09-03: https://en.wikipedia.org/wiki/Android_15
    "15.0.0_r1": "2024-09-03",
    # https://developer.android.com/blog/posts/android-17-is-here (16 June 2026, source in AOSP)
    "17.0.0_r1": "2026-06-16",
}


def observatory_level(git_dir, revision, release, tag, roots):
    """(date, source, ids) of the release the observatory recorded at `revision`; every certificate is checked
    against its file name and the record, and anything that disagrees stops the build."""
    commit = git(git_dir, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    if not commit:
        fail(f"--observatory {git_dir}: no commit {excerpt(revision)}")
    commit = commit.strip()
    where = f"trust_stores_observatory {commit[:12]}:{YAML_PATH}"
    text = git(git_dir, "show", f"{commit}:{YAML_PATH}")
    if text is None:
        fail(f"{where}: no such file")
    fields, fingerprints = read_record(text, where)
    if fields.get("version") != release:
        fail(f"{where}: records release {excerpt(fields.get('version', ''))}, not {excerpt(release)}")
    # A record of another Android version would put its store under this level: 14.0.0_r2 is android-14.0.0_r1's.
    if release.partition("_")[0] != tag.removeprefix("android-").partition("_")[0]:
        fail(f"{where}: release {excerpt(release)} is not a release of {tag}'s Android version")
    date = RELEASE_DATES.get(release, fields.get("date_fetched", ""))
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        fail(f"{where}: date_fetched {excerpt(date)} is not YYYY-MM-DD")
    files = certificate_blobs(git_dir, commit)
    identifiers = []
    for fingerprint in fingerprints:
        name = f"certificates/{fingerprint}.pem"
        if fingerprint not in files:
            fail(f"{where}: {name} is not in that commit")
        # Checked once per file content and name: most of one record's files are in the next one too.
        key = (files[fingerprint], fingerprint)
        if key not in roots.by_blob:
            origin = f"trust_stores_observatory {commit[:12]}:{name}"
            der = pem_der(git(git_dir, "cat-file", "blob", files[fingerprint], binary=True) or b"")
            if not der or hashlib.sha256(der).hexdigest() != fingerprint:
                fail(f"{origin}: not the certificate whose SHA-256 names it")
            roots.by_blob[key] = roots.add(der, origin)
        identifiers.append(roots.by_blob[key])
    return date, f"trust_stores_observatory {commit} (aosp {release})", [i for i in identifiers if i]


def pem_der(pem):
    """The DER of a PEM file's one certificate, or None; roots.add() then has openssl read it."""
    match = re.fullmatch(rb"\s*-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----\s*", pem)
    try:
        return base64.b64decode(b"".join(match.group(1).split()), validate=True) if match else None
    except ValueError:
        return None


def read_record(text, where):
    """The record's top-level fields and the SHA-256 of each trusted certificate (lowercase hex). The file is the
    fetcher's YAML, one shape since 2017; a line of another shape stops the build rather than be guessed at."""
    fields, fingerprints, items, section = {}, [], 0, None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if not line.startswith((" ", "-")):
            key, colon, value = line.partition(":")
            if not colon:
                fail(f"{where}:{number}: expected KEY: VALUE, found {excerpt(line)}")
            section = key.strip()
            fields[section] = value.strip()
            continue
        if section != "trusted_certificates":
            continue
        items += line.startswith("- ")
        match = re.fullmatch(r"(?:- |  )fingerprint: ([0-9a-fA-F]{64})", line.rstrip())
        if match:
            fingerprints.append(match.group(1).lower())
        elif not re.fullmatch(r"(?:- |  )subject_name: .*", line):
            fail(f"{where}:{number}: expected subject_name or fingerprint, found {excerpt(line)}")
    count = fields.get("trusted_certificates_count", "")
    if not (count == str(items) == str(len(fingerprints))):
        fail(f"{where}: trusted_certificates_count {excerpt(count)}, but {items} entries with "
             f"{len(fingerprints)} fingerprints")
    return fields, fingerprints


def certificate_blobs(git_dir, commit):
    """The blob of each certificates/<sha256>.pem at `commit`, by the SHA-256."""
    blobs = {}
    for line in (git(git_dir, "ls-tree", f"{commit}:certificates") or "").splitlines():
        info, _, name = line.partition("\t")
        match = re.fullmatch(r"([0-9a-f]{64})\.pem", name)
        if match and info.split()[1:2] == ["blob"]:
            blobs[match.group(1)] = info.split()[2]
    return blobs
