#!/usr/bin/env python3
"""Writes the binary plists of Tests/Fixtures/trustkit/ from their XML twins, as Xcode does when it builds an app
(Info.plist is shipped in binary form). Run it from this folder after changing an XML twin; see README.md."""
import plistlib

TWINS = {
    "Info.plist": "Info-binary.plist",
    "TSKConfiguration.plist": "TSKConfiguration-binary.plist",
    "bad_hash_type.plist": "bad_hash_type-binary.plist",
}

for source, target in TWINS.items():
    with open(source, "rb") as xml:
        value = plistlib.load(xml)
    with open(target, "wb") as binary:
        plistlib.dump(value, binary, fmt=plistlib.FMT_BINARY)

# A binary plist cut short, as a broken download or copy leaves it: the trailer that locates the objects is gone.
with open("Info-binary.plist", "rb") as whole:
    data = whole.read()
with open("bad_truncated-binary.plist", "wb") as cut:
    cut.write(data[: len(data) // 2])
