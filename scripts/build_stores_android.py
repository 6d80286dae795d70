"""Android's store per API level, for scripts/build_stores.py: from AOSP's system/ca-certificates, from libcore's
history before it existed (API 14-23), or from the trust store observatory's records (build_stores_observatory.py)
for levels with no git history at hand. Which one an `--android-ref` names is its prefix (docs/platform-stores.md)."""
import re

from build_stores_common import block, commit_of, excerpt, fail, tree_roots, warn
from build_stores_observatory import observatory_level

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
    # compileSdk 37: https://developer.android.com/about/versions/17/setup-sdk
    (37, "17", "android-17.0.0_r1"),
]

# Up to Android 6.0 the store was libcore's luni/src/main/files/cacerts; system/ca-certificates was split out of
# libcore, with that history, in September 2015 (its commit 04c74e4), so a release tag of API 23 or below is looked
# up in libcore when one is given: AOSP's system/ca-certificates has no tags from before it existed.
LIBCORE_LAST_API = 23
FOLDERS = {"aosp": ("system/ca-certificates", "files"), "libcore": ("libcore", "luni/src/main/files/cacerts")}
ROOT_NAME = r"[0-9a-f]{8}\.[0-9]+"
PREFIXES = ("aosp", "libcore", "tso")


class AndroidRef:
    """One `--android-ref API=[aosp:|libcore:]REV` or `API=tso:COMMIT:RELEASE`, as given."""

    def __init__(self, text):
        match = re.fullmatch(r"(\d+)=(.+)", text)
        if not match:
            fail(f"--android-ref {excerpt(text)}: expected API=REV, API=libcore:REV or API=tso:COMMIT:RELEASE, "
                 "e.g. 24=android-7.0.0_r1")
        self.text = text
        self.api = int(match.group(1))
        prefix, _, rest = match.group(2).partition(":")
        self.kind, self.revision = (prefix, rest) if prefix in PREFIXES and rest else ("aosp", match.group(2))
        self.release = None
        if self.kind == "tso":
            self.revision, _, self.release = rest.partition(":")
            if not self.revision or not self.release:
                fail(f"--android-ref {excerpt(text)}: expected API=tso:COMMIT:RELEASE, e.g. 34=tso:5833ea5:14.0.0_r2")
        if self.api not in (api for api, _, _ in ANDROID_RELEASES):
            fail(f"--android-ref {excerpt(text)}: no Android API {self.api} (known: 14-37 but 20)")


def parse_refs(texts, inputs):
    """The refs by API level, each checked against the inputs given (`aosp`, `libcore`, `tso` git directories)."""
    refs = {}
    for text in texts:
        ref = AndroidRef(text)
        if ref.api in refs:
            fail(f"--android-ref: API {ref.api} given twice")
        if not inputs.get(ref.kind):
            option = {"aosp": "--aosp", "libcore": "--libcore", "tso": "--observatory"}[ref.kind]
            fail(f"--android-ref {excerpt(text)}: needs {option} GIT_DIR")
        refs[ref.api] = ref
    return refs


def android(inputs, refs, roots):
    """One block per API level that an input has, in API order."""
    blocks = []
    for api, release, tag in ANDROID_RELEASES:
        ref = refs.get(api)
        if ref and ref.kind == "tso":
            level = observatory_level(inputs["tso"], ref.revision, ref.release, tag, roots)
        elif ref:
            note = f"--android-ref {ref.text.partition('=')[2]}, for {tag}"
            level = git_level(inputs[ref.kind], ref.kind, ref.revision, note, api, roots)
        elif api <= LIBCORE_LAST_API and inputs.get("libcore"):
            level = git_level(inputs["libcore"], "libcore", tag, tag, api, roots)
        elif inputs.get("aosp"):
            level = git_level(inputs["aosp"], "aosp", tag, tag, api, roots)
        else:
            continue
        if level:
            date, source, identifiers = level
            blocks.append(block(api, f"Android {release} (API {api})", date, source, identifiers))
    return blocks


def git_level(git_dir, kind, revision, note, api, roots):
    """(date, source, ids) of the store at `revision` of AOSP's system/ca-certificates or libcore, or None."""
    repository, folder = FOLDERS[kind]
    commit = commit_of(git_dir, revision)
    if not commit:
        hint = "--libcore GIT_DIR or " if kind == "aosp" and api <= LIBCORE_LAST_API else ""
        warn(f"android API {api}: no revision {revision} in {git_dir}; skipped (pass {hint}--android-ref {api}=REV)")
        return None
    identifiers = tree_roots(git_dir, commit[0], folder, ROOT_NAME, roots, f"android {revision}")
    if identifiers is None:
        warn(f"android API {api}: {revision} of {git_dir} has no {folder}/; skipped")
        return None
    # The commit date: the day the history shows this store.
    return commit[1], f"{repository} {commit[0]} ({note})", identifiers
