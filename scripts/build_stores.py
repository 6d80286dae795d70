"""Builds pinctl's platform store snapshots; run through scripts/build-stores.sh, which documents the options.

Output (docs/platform-stores.md is the contract pinctl reads):
  DIR/FORMAT                "pinctl-stores 1"
  DIR/roots/<id>.pem        each root once; <id> is the SHA-256 of its SubjectPublicKeyInfo in hex (a second
                            certificate for the same key gets "-" and its own SHA-256's first 8 hex digits)
  DIR/<platform>.txt        one block per version: version, label, date, source, then one `root <id>` per root
  DIR/apple-ct-logs.cnf     the CT logs Apple's newest log list trusts, as OpenSSL's CT log file with more keys
"""
import argparse
import base64
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

# Android API levels and the AOSP release tag of each (the first release of that level).
# API levels: https://developer.android.com/tools/releases/platforms and
# https://source.android.com/docs/setup/reference/build-numbers (tags per release).
# API 20 (Android 4.4W, watches only) has no phone release and so no snapshot.
ANDROID_RELEASES = [
    (14, "4.0", "android-4.0.1_r1"),
    (15, "4.0.3", "android-4.0.3_r1"),
    (16, "4.1", "android-4.1.1_r1"),
    (17, "4.2", "android-4.2_r1"),
    (18, "4.3", "android-4.3_r1"),
    (19, "4.4", "android-4.4_r1"),
    (21, "5.0", "android-5.0.0_r1"),
    (22, "5.1", "android-5.1.0_r1"),
    (23, "6.0", "android-6.0.0_r1"),
    (24, "7.0", "android-7.0.0_r1"),
    # 7.1.1 is the first release of API 25 that shipped beyond Pixel (7.1.0); Let's Encrypt's compatibility page
    # (https://letsencrypt.org/docs/certificate-compatibility/) names it for ISRG Root X1.
    (25, "7.1.1", "android-7.1.1_r1"),
    (26, "8.0", "android-8.0.0_r1"),
    (27, "8.1", "android-8.1.0_r1"),
    (28, "9", "android-9.0.0_r1"),
    (29, "10", "android-10.0.0_r1"),
    (30, "11", "android-11.0.0_r1"),
    (31, "12", "android-12.0.0_r1"),
    (32, "12L", "android-12.1.0_r1"),
    (33, "13", "android-13.0.0_r1"),
    (34, "14", "android-14.0.0_r1"),
    (35, "15", "android-15.0.0_r1"),
    (36, "16", "android-16.0.0_r1"),
]

# Apple's trust store per OS major, with the security_certificates tag of the first release of that major.
# Apple lists the trust store version of each OS release at https://support.apple.com/en-us/103272 ("Available
# trusted root certificates for Apple operating systems", with an archived "List of available trusted root
# certificates in iOS N" page per store); "Beginning with iOS 12, macOS 10.14, tvOS 12, and watchOS 5, all four Apple
# operating systems use a shared Trust Store", so snapshots start at iOS 12. The tag's config/AssetVersion.plist
# carries the trust store version that those pages name (e.g. 2023071300 for iOS 17 and macOS 14, 2025072000 for
# iOS 26 and macOS 26).
APPLE_RELEASES = [
    ("12", "10.14", "security_certificates-55093.200.19"),
    ("13", "10.15", "security_certificates-55161.0.3"),
    ("14", "11", "security_certificates-55188.40.9"),
    ("15", "12", "security_certificates-55218.40.9"),
    ("16", "13", "security_certificates-55245.40.7"),
    ("17", "14", "security_certificates-55291"),
    ("18", "15", "security_certificates-55313.0.8"),
    ("26", "26", "security_certificates-55349.0.11"),
]

MOZILLA_DEFAULT = "/usr/share/ca-certificates/mozilla"


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
    """The ids of the roots in `folder` at `revision` whose names match `pattern`; each blob is read once."""
    identifiers = []
    for line in (git(git_dir, "ls-tree", f"{revision}:{folder}") or "").splitlines():
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
    where = f"version {version}"
    lines = [f"version {version}", f"label {text_value(label, where)}", f"date {date}",
             f"source {text_value(source, where)}"]
    try:
        datetime.datetime.strptime(date, "%Y-%m-%d")
    except ValueError:
        fail(f"{where}: {date!r} is not a day YYYY-MM-DD")
    if len(set(identifiers)) > MAXIMUM_ROOTS:
        fail(f"{where}: more than the {MAXIMUM_ROOTS} roots pinctl reads")
    lines += [f"root {identifier}" for identifier in sorted(set(identifiers))]
    return "\n".join(lines) + "\n"


def android(git_dir, refs, roots):
    blocks = []
    for api, release, tag in ANDROID_RELEASES:
        revision = refs.get(api, tag)
        commit = commit_of(git_dir, revision)
        if not commit:
            warn(f"android API {api}: no revision {revision} in {git_dir}; skipped (pass --android-ref {api}=REV)")
            continue
        identifiers = tree_roots(git_dir, commit[0], "files", r"[0-9a-f]{8}\.[0-9]+", roots, f"android {revision}")
        source = f"system/ca-certificates {commit[0]} ({revision})"
        blocks.append(block(api, f"Android {release} (API {api})", commit[1], source, identifiers))
    return blocks


def apple(git_dir, roots):
    ios, macos = [], []
    for ios_version, macos_version, tag in APPLE_RELEASES:
        commit = commit_of(git_dir, tag)
        if not commit:
            warn(f"ios {ios_version}/macos {macos_version}: no tag {tag} in {git_dir}; skipped")
            continue
        identifiers = tree_roots(git_dir, commit[0], "certificates/roots", r"[^.].*", roots, f"apple {tag}")
        plist = git(git_dir, "show", f"{commit[0]}:config/AssetVersion.plist") or ""
        store = re.search(r"<key>VersionNumber</key>\s*<integer>(\d+)</integer>", plist)
        store_text = f"trust store {store.group(1)}, " if store else ""
        source = f"security_certificates {commit[0]} ({store_text}{tag})"
        # The repository's commits are imports made years later; the trust store version is the date of the store's
        # contents (2023071300: 2023-07-13), as Apple's pages give it.
        date = f"{store.group(1)[0:4]}-{store.group(1)[4:6]}-{store.group(1)[6:8]}" if store else commit[1]
        ios.append(block(ios_version, f"iOS {ios_version}", date, source, identifiers))
        macos.append(block(macos_version, f"macOS {macos_version}", date, source, identifiers))
    return ios, macos


# Apple's log list schema that BuildTrustedCTLogsPlist.py (security_certificates, CertificateTool/BuildiOSAsset)
# accepts; it is the one in every tag this script reads from 2023 on.
APPLE_CT_SCHEMA = "https://valid.apple.com/ct/log_list/schema_versions/log_list_schema_v5.json"


def apple_ct_logs(git_dir):
    """The logs of certificate_transparency/log_list.json at the newest Apple tag present, as trustd holds them, in
    the file format of OpenSSL's CTLOG_STORE_load_file (so `openssl s_client -ct -ctlogfile` takes the same logs).

    Devices take the log list from MobileAsset, not from the OS release (trustd: SecOTAPKICopyTrustedCTLogs), so one
    list, the newest, stands for every version. As BuildTrustedCTLogsPlist.py converts it: pending and rejected logs
    are not trusted; a readonly log keeps its timestamp ("frozen" to trustd), a retired one too ("expiry"); a temporal
    interval bounds the expiry dates of the certificates the log takes. The pending and rejected logs are kept apart
    (`untrusted_logs`), so that an SCT from one is named for what it is."""
    for _, _, tag in reversed(APPLE_RELEASES):
        commit = commit_of(git_dir, tag)
        if not commit:
            continue
        text = git(git_dir, "show", f"{commit[0]}:certificate_transparency/log_list.json")
        if text is None:
            warn(f"apple {tag}: no certificate_transparency/log_list.json; no CT log list written")
            return None
        try:
            data = json.loads(text)
        except ValueError as error:
            fail(f"apple {tag}: certificate_transparency/log_list.json: {error}")
        if not isinstance(data, dict) or data.get("$schema") != APPLE_CT_SCHEMA:
            fail(f"apple {tag}: certificate_transparency/log_list.json: expected the schema {APPLE_CT_SCHEMA}")
        sections, trusted, untrusted = [], [], []
        for operator in data.get("operators", []):
            for log in operator.get("logs", []) + operator.get("tiled_logs", []):
                name = f"log{len(sections) + 1}"
                section, is_trusted = ct_log_section(operator, log, tag, name)
                sections.append(section)
                (trusted if is_trusted else untrusted).append(name)
        if len(sections) > MAXIMUM_LOGS:
            fail(f"apple {tag}: certificate_transparency/log_list.json: more than the {MAXIMUM_LOGS} logs pinctl reads")
        source = conf_value(f"security_certificates {commit[0]} ({tag})", f"apple {tag}")
        # OpenSSL loads enabled_logs only; the untrusted ones are there to name them when an SCT is from one.
        header = [f"list_date = {commit[1]}", f"list_source = {source}", f"enabled_logs = {','.join(trusted)}",
                  f"untrusted_logs = {','.join(untrusted)}"]
        text = "\n".join(header) + "\n" + "".join("\n" + section for section in sections)
        return text, f"{len(trusted)} trusted, {len(untrusted)} pending or rejected"
    return None


def ct_log_section(operator, log, tag, name):
    """The log's section, and whether trustd trusts it."""
    state = log.get("state", {})
    where = f"apple {tag}: certificate_transparency/log_list.json: log {log.get('description', '?')!r}"
    try:
        identifier = base64.b64decode(log["log_id"], validate=True)
        key = base64.b64decode(log["key"], validate=True)
    except (KeyError, ValueError, TypeError):
        fail(f"{where}: no valid base64 log_id and key")
    if len(base64.b64encode(key)) > MAXIMUM_KEY:
        fail(f"{where}: a key longer than pinctl reads ({MAXIMUM_KEY} base64 characters)")
    if hashlib.sha256(key).digest() != identifier:
        fail(f"{where}: its log_id is not the SHA-256 of its key")
    # pinctl takes a key OpenSSL reads as a public key and writes back to the same DER (CTLogListFile.publicKey).
    if openssl(["pkey", "-pubin", "-inform", "DER", "-outform", "DER"], key) != key:
        fail(f"{where}: its key is not a DER SubjectPublicKeyInfo OpenSSL reads back the same")
    lines = [f"[{name}]", f"description = {conf_value(log.get('description', ''), where)}",
             f"key = {base64.b64encode(key).decode()}", f"operator = {conf_value(operator.get('name', ''), where)}"]
    if "pending" in state or "rejected" in state:
        untrusted = "pending" if "pending" in state else "rejected"
        lines.append(f"untrusted = {untrusted} {timestamp(state[untrusted], where)}")
        return "\n".join(lines) + "\n", False
    if "readonly" in state:
        lines.append(f"readonly = {timestamp(state['readonly'], where)}")
    elif "retired" in state:
        lines.append(f"retired = {timestamp(state['retired'], where)}")
    elif "qualified" not in state and "usable" not in state:
        fail(f"{where}: unknown state {sorted(state)}")
    interval = log.get("temporal_interval")
    if interval:
        start, end = stamp(interval.get("start_inclusive"), where), stamp(interval.get("end_exclusive"), where)
        if start >= end:
            fail(f"{where}: its temporal_interval does not start before it ends")
        lines += [f"shard_start = {start}", f"shard_end = {end}"]
    return "\n".join(lines) + "\n", True


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
        fail(f"{where}: {text[:40]!r}: not printable text of at most {MAXIMUM_TEXT} characters, which pinctl refuses")
    return text


def conf_value(text, where):
    """One line of text as a value of apple-ct-logs.cnf: quotes, `$`, `#` and backslashes escaped (CTLogListSyntax
    reads each as the character it escapes), spaces kept."""
    return re.sub(r"([\\\"'$#])", r"\\\1", text_value(text, where))


def timestamp(state, where):
    return stamp(state.get("timestamp") if isinstance(state, dict) else None, where)


def stamp(text, where):
    """A time as pinctl reads it (CTLogListFile.time): YYYY-MM-DDTHH:MM:SSZ exactly, and a time that exists."""
    if not isinstance(text, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", text):
        fail(f"{where}: {text!r} is not a time YYYY-MM-DDTHH:MM:SSZ")
    try:
        datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        fail(f"{where}: {text!r} is not a time that exists")
    return text


def mozilla(directory, roots):
    names = sorted(name for name in os.listdir(directory) if name.endswith(".crt"))
    identifiers = []
    for name in names:
        with open(os.path.join(directory, name), "rb") as file:
            identifiers.append(roots.add(file.read(), f"{directory}/{name}"))
    package = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "ca-certificates"], capture_output=True)
    package_version = package.stdout.decode() if package.returncode == 0 else ""
    # Debian versions ca-certificates by the date of its NSS import (20230311+deb12u1): that date is the version.
    dated = re.match(r"(\d{4})(\d{2})(\d{2})", package_version)
    if not dated:
        warn(f"{directory}: no dated ca-certificates package version ({package_version!r}); mozilla skipped")
        return []
    version = "".join(dated.groups())
    source = f"Debian ca-certificates {package_version} ({directory})"
    label = f"Mozilla NSS as Debian ca-certificates {package_version}"
    return [block(version, label, "-".join(dated.groups()), source, filter(None, identifiers))]


def write_platform(directory, name, blocks):
    text = f"# pinctl store snapshot: {name} (written by scripts/build-stores.sh; docs/platform-stores.md)\n"
    with open(os.path.join(directory, name + ".txt"), "w") as file:
        file.write(text + "".join("\n" + b for b in blocks))


def main():
    parser = argparse.ArgumentParser(prog="build-stores.sh")
    parser.add_argument("--out", required=True)
    parser.add_argument("--aosp")
    parser.add_argument("--apple")
    parser.add_argument("--mozilla")
    parser.add_argument("--android-ref", action="append", default=[])
    parser.add_argument("--force", action="store_true")
    options = parser.parse_args()

    refs = {}
    for text in options.android_ref:
        match = re.fullmatch(r"(\d+)=(.+)", text)
        if not match:
            fail(f"--android-ref {text}: expected API=REV, e.g. 24=android-7.0.0_r1")
        refs[int(match.group(1))] = match.group(2)
    mozilla_directory = options.mozilla or (MOZILLA_DEFAULT if os.path.isdir(MOZILLA_DEFAULT) else "none")
    if not options.aosp and not options.apple and mozilla_directory == "none":
        fail("nothing to build: give --aosp, --apple or --mozilla")
    if os.path.exists(os.path.join(options.out, "FORMAT")) and not options.force:
        fail(f"{options.out} already holds a snapshot; pass --force to replace it")

    # Checked before anything is written, so a wrong path leaves nothing behind.
    aosp = git_directory(options.aosp) if options.aosp else None
    apple_git = git_directory(options.apple) if options.apple else None

    os.makedirs(options.out, exist_ok=True)
    # Built beside DIR and moved in at the end, so a failed run leaves the old snapshot whole.
    staging = tempfile.mkdtemp(prefix=".build-stores.", dir=options.out)
    roots = Roots(os.path.join(staging, "roots"))
    os.mkdir(roots.directory)
    platforms = {}
    ct_logs = None
    if aosp:
        platforms["android"] = android(aosp, refs, roots)
    if apple_git:
        platforms["ios"], platforms["macos"] = apple(apple_git, roots)
        ct_logs = apple_ct_logs(apple_git)
    if mozilla_directory != "none":
        platforms["mozilla"] = mozilla(mozilla_directory, roots)
    for name, blocks in platforms.items():
        write_platform(staging, name, blocks)
    if ct_logs:
        with open(os.path.join(staging, "apple-ct-logs.cnf"), "w") as file:
            file.write("# pinctl store snapshot: Apple's CT log list (written by scripts/build-stores.sh; "
                       "docs/platform-stores.md)\n" + ct_logs[0])
    with open(os.path.join(staging, "FORMAT"), "w") as file:
        file.write("pinctl-stores 1\n")

    subprocess.run(["rm", "-rf", "--", os.path.join(options.out, "roots")], check=True)
    for name in os.listdir(options.out):
        if name.endswith(".txt") or name in ("FORMAT", "apple-ct-logs.cnf"):
            os.remove(os.path.join(options.out, name))
    for name in os.listdir(staging):
        os.rename(os.path.join(staging, name), os.path.join(options.out, name))
    os.rmdir(staging)
    for name, blocks in platforms.items():
        print(f"{name}: {len(blocks)} versions")
    if ct_logs:
        print(f"apple CT logs: {ct_logs[1]} in {options.out}/apple-ct-logs.cnf")
    print(f"roots: {len(roots.by_certificate)} in {options.out}/roots")


if __name__ == "__main__":
    main()
