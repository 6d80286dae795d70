"""Builds pinctl's platform store snapshots; run through scripts/build-stores.sh, which documents the options.

Output (docs/platform-stores.md is the contract pinctl reads):
  DIR/FORMAT                "pinctl-stores 1"
  DIR/roots/<id>.pem        each root once; <id> is the SHA-256 of its SubjectPublicKeyInfo in hex (a second
                            certificate for the same key gets "-" and its own SHA-256's first 8 hex digits)
  DIR/<platform>.txt        one block per version: version, label, date, source, then one `root <id>` per root
  DIR/apple-ct-logs.cnf     the CT logs Apple's newest log list trusts, as OpenSSL's CT log file with more keys
  DIR/roots.index           each root's id and OpenSSL's hashes of its subject and issuer (index_stores.py)
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

sys.dont_write_bytecode = True  # scripts/ stays as committed: no __pycache__ beside the modules below

from build_stores_android import android, parse_refs  # noqa: E402
from build_stores_common import (block, commit_of, excerpt, fail, git, git_directory, openssl,  # noqa: E402
                                 text_value, tree_roots, Roots, warn, MAXIMUM_KEY, MAXIMUM_LOGS)
from build_stores_output import Staging  # noqa: E402
from index_stores import write_index  # noqa: E402

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


def apple(git_dir, roots):
    ios, macos = [], []
    for ios_version, macos_version, tag in APPLE_RELEASES:
        commit = commit_of(git_dir, tag)
        if not commit:
            warn(f"ios {ios_version}/macos {macos_version}: no tag {tag} in {git_dir}; skipped")
            continue
        # No certificates/roots folder is an empty store: git keeps no empty folder once every root has moved out.
        identifiers = tree_roots(git_dir, commit[0], "certificates/roots", r"[^.].*", roots, f"apple {tag}") or []
        store = trust_store_version(git(git_dir, "show", f"{commit[0]}:config/AssetVersion.plist") or "")
        store_text = f"trust store {store}, " if store else ""
        source = f"security_certificates {commit[0]} ({store_text}{tag})"
        # The repository's commits are imports made years later; the trust store version is the date of the store's
        # contents (2023071300: 2023-07-13), as Apple's pages give it.
        date = f"{store[0:4]}-{store[4:6]}-{store[6:8]}" if store else commit[1]
        ios.append(block(ios_version, f"iOS {ios_version}", date, source, identifiers))
        macos.append(block(macos_version, f"macOS {macos_version}", date, source, identifiers))
    return ios, macos


def trust_store_version(plist):
    """The trust store version (YYYYMMDDNN) of config/AssetVersion.plist, or None. Tags up to iOS 17's (55291) write it
    as `<real>2023071300</real>`, later ones as `<integer>`: the same number."""
    store = re.search(r"<key>VersionNumber</key>\s*<(integer|real)>\s*(\d{10})(?:\.0*)?\s*</\1>", plist)
    return store.group(2) if store else None


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


def conf_value(text, where):
    """One line of text as a value of apple-ct-logs.cnf: quotes, `$`, `#` and backslashes escaped (CTLogListSyntax
    reads each as the character it escapes), spaces kept."""
    return re.sub(r"([\\\"'$#])", r"\\\1", text_value(text, where))


def timestamp(state, where):
    return stamp(state.get("timestamp") if isinstance(state, dict) else None, where)


def stamp(text, where):
    if not isinstance(text, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", text):
        fail(f"{where}: {text!r} is not a time YYYY-MM-DDTHH:MM:SSZ")
    try:
        datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        fail(f"{where}: {text!r} is not a time that exists")
    return text


def mozilla_version(directory, given, explicit):
    """The Debian ca-certificates version that `directory` holds, or None to leave mozilla out: `--mozilla-version`,
    else the installed package's when `directory` is where that package puts its certificates."""
    version = given
    if not version and os.path.realpath(directory) == os.path.realpath(MOZILLA_DEFAULT):
        package = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "ca-certificates"], capture_output=True)
        version = package.stdout.decode("utf-8", "replace") if package.returncode == 0 else ""
    # Debian versions ca-certificates by the date of its NSS import (20230311+deb12u1): that date is the version.
    if version and re.fullmatch(r"\d{8}[0-9A-Za-z.+~-]*", version):
        return version
    problem = (f"{excerpt(version)} is not a dated Debian ca-certificates version" if version else
               "no version: give --mozilla-version, the Debian ca-certificates version it holds")
    if explicit:
        fail(f"--mozilla {excerpt(directory)}: {problem}")
    warn(f"{directory}: {problem}; mozilla skipped")
    return None


def mozilla(directory, package_version, roots):
    names = sorted(name for name in os.listdir(directory) if name.endswith(".crt"))
    identifiers = []
    for name in names:
        with open(os.path.join(directory, name), "rb") as file:
            identifiers.append(roots.add(file.read(), f"{directory}/{name}"))
    day = f"{package_version[0:4]}-{package_version[4:6]}-{package_version[6:8]}"
    # The package and its version say where the roots come from on any machine; the directory read was this one's.
    source = f"Debian ca-certificates {package_version}"
    label = f"Mozilla NSS as Debian ca-certificates {package_version}"
    return [block(package_version[0:8], label, day, source, filter(None, identifiers))]


def write_platform(directory, name, blocks):
    text = f"# pinctl store snapshot: {name} (written by scripts/build-stores.sh; docs/platform-stores.md)\n"
    with open(os.path.join(directory, name + ".txt"), "w") as file:
        file.write(text + "".join("\n" + b for b in blocks))


def main():
    parser = argparse.ArgumentParser(prog="build-stores.sh")
    parser.add_argument("--out", required=True)
    parser.add_argument("--aosp")
    parser.add_argument("--libcore")
    parser.add_argument("--observatory")
    parser.add_argument("--apple")
    parser.add_argument("--mozilla")
    parser.add_argument("--mozilla-version")
    parser.add_argument("--android-ref", action="append", default=[])
    parser.add_argument("--force", action="store_true")
    options = parser.parse_args()

    mozilla_directory = options.mozilla or (MOZILLA_DEFAULT if os.path.isdir(MOZILLA_DEFAULT) else "none")
    if not (options.aosp or options.libcore or options.observatory or options.apple) and mozilla_directory == "none":
        fail("nothing to build: give --aosp, --libcore, --observatory, --apple or --mozilla")
    if os.path.exists(os.path.join(options.out, "FORMAT")) and not options.force:
        fail(f"{options.out} already holds a snapshot; pass --force to replace it")

    # Checked before anything is written, so a wrong path or ref leaves nothing behind.
    inputs = {kind: git_directory(path) if path else None
              for kind, path in (("aosp", options.aosp), ("libcore", options.libcore), ("tso", options.observatory))}
    refs = parse_refs(options.android_ref, inputs)
    apple_git = git_directory(options.apple) if options.apple else None
    package_version = None
    if mozilla_directory != "none":
        package_version = mozilla_version(mozilla_directory, options.mozilla_version, explicit=bool(options.mozilla))

    # Built in a staging folder and moved in at the end, so a failed run leaves the old snapshot whole; the folder
    # goes on every exit (build_stores_output.py).
    staging = Staging(options.out)
    roots = Roots(os.path.join(staging, "roots"))
    os.mkdir(roots.directory)
    platforms = {}
    ct_logs = None
    if any(inputs.values()):
        platforms["android"] = android(inputs, refs, roots)
    if apple_git:
        platforms["ios"], platforms["macos"] = apple(apple_git, roots)
        ct_logs = apple_ct_logs(apple_git)
    if package_version:
        platforms["mozilla"] = mozilla(mozilla_directory, package_version, roots)
    for name, blocks in platforms.items():
        write_platform(staging, name, blocks)
    if ct_logs:
        with open(os.path.join(staging, "apple-ct-logs.cnf"), "w") as file:
            file.write("# pinctl store snapshot: Apple's CT log list (written by scripts/build-stores.sh; "
                       "docs/platform-stores.md)\n" + ct_logs[0])
    with open(os.path.join(staging, "FORMAT"), "w") as file:
        file.write("pinctl-stores 1\n")
    write_index(os.fspath(staging))
    staging.replace()
    for name, blocks in platforms.items():
        print(f"{name}: {len(blocks)} versions")
    if ct_logs:
        print(f"apple CT logs: {ct_logs[1]} in {options.out}/apple-ct-logs.cnf")
    print(f"roots: {len(roots.by_certificate)} in {options.out}/roots")


if __name__ == "__main__":
    main()
