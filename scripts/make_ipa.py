#!/usr/bin/env python3
"""Builds iOS app archives (IPA files) for pinctl's tests, so that no downloaded app is committed.

    scripts/make_ipa.py OUT.ipa --name App [--info-plist-xml FILE | --info FILE.json] [--binary-plist]
        [--version 2.1.0] [--minimum-os 14.0] [--resource PATH ...] [--framework NAME ...]
        [--framework-resource NAME PATH ...] [--encrypted] [--fat] [--no-executable] [--executable-bytes FILE]
    scripts/make_ipa.py --print-macho FILE      # each slice's cputype and cryptid, to check what was built

The archive is laid out as an App Store IPA: Payload/NAME.app/ with Info.plist (defaults merged with --info or
--info-plist-xml), a minimal arm64 Mach-O whose LC_ENCRYPTION_INFO_64 says whether it is FairPlay encrypted
(--fat makes it universal, an x86_64 slice first), the --resource files, embedded frameworks (Frameworks/NAME.framework/ with an Info.plist, a binary and the
--framework-resource files), and a stub _CodeSignature/CodeResources. Entries have a fixed order and date, so the same arguments give the same bytes.
"""
import argparse
import io
import json
import pathlib
import plistlib
import struct
import sys
import zipfile
from xml.parsers.expat import ExpatError

CPU_ARM64, CPU_X86_64 = 0x0100000C, 0x01000007
MH_MAGIC_64, FAT_MAGIC = 0xFEEDFACF, 0xCAFEBABE
LC_SEGMENT_64, LC_ENCRYPTION_INFO, LC_ENCRYPTION_INFO_64 = 0x19, 0x21, 0x2C
PAGE = 0x4000  # arm64 page size; fat slices are aligned to it (align=14)
DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say; any fixed date keeps builds reproducible


class Failure(Exception):
    pass


def read_bytes(path):
    try:
        return pathlib.Path(path).read_bytes()
    except OSError as e:
        raise Failure(f"{path}: {e.strerror or e}")


def macho(cputype, cryptid):
    segment = struct.pack("<II16sQQQQiiII", LC_SEGMENT_64, 72, b"__TEXT", 0x100000000, PAGE, 0, PAGE, 5, 5, 0, 0)
    # cryptoff skips the header page as in a real app; this __TEXT stops there, so nothing maps the range.
    encryption = struct.pack("<IIIIII", LC_ENCRYPTION_INFO_64, 24, PAGE, PAGE, cryptid, 0)
    header = struct.pack("<IiiIIIII", MH_MAGIC_64, cputype, 0, 2, 2, len(segment) + len(encryption), 0, 0)
    return (header + segment + encryption).ljust(2 * PAGE, b"\0")


def fat(slices):
    header = struct.pack(">II", FAT_MAGIC, len(slices))
    body, offset = b"", PAGE  # the fat header and arch table fit in the first page
    for cputype, data in slices:
        header += struct.pack(">iiIII", cputype, 0, offset, len(data), 14)
        body = body.ljust(offset - PAGE, b"\0") + data
        offset += -(-len(data) // PAGE) * PAGE
    return header.ljust(PAGE, b"\0") + body


def describe_slice(data, base):
    magic = struct.unpack_from("<I", data, base)[0]
    if magic not in (MH_MAGIC_64, 0xFEEDFACE):
        raise Failure(f"no Mach-O header at offset {base:#x} (magic {magic:#010x})")
    cputype, _, _, ncmds = struct.unpack_from("<iiII", data, base + 4)
    at = base + (32 if magic == MH_MAGIC_64 else 28)
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        if cmd in (LC_ENCRYPTION_INFO, LC_ENCRYPTION_INFO_64):
            return f"cputype {cputype & 0xFFFFFFFF:#010x} cryptid {struct.unpack_from('<I', data, at + 16)[0]}"
        if size < 8:
            raise Failure(f"load command at offset {at:#x} has size {size}")
        at += size
    return f"cputype {cputype & 0xFFFFFFFF:#010x} no LC_ENCRYPTION_INFO"


def print_macho(path):
    data = read_bytes(path)
    try:
        if struct.unpack_from(">I", data)[0] == FAT_MAGIC:
            count = struct.unpack_from(">I", data, 4)[0]
            offsets = [struct.unpack_from(">I", data, 8 + 20 * i + 8)[0] for i in range(count)]
        else:
            offsets = [0]
        lines = [describe_slice(data, offset) for offset in offsets]
    except struct.error:
        raise Failure(f"{path}: truncated Mach-O")
    except Failure as e:
        raise Failure(f"{path}: {e}")
    print("\n".join(lines))


def load_info(args):
    path = args.info or args.info_plist_xml
    if path is None:
        return {}
    data = read_bytes(path)
    try:
        info = json.loads(data) if args.info else plistlib.loads(data)
    except (ValueError, ExpatError) as e:  # JSONDecodeError, InvalidFileException and UnicodeError are ValueErrors
        raise Failure(f"{path}: not valid {'JSON' if args.info else 'property list'}: {e}")
    if not isinstance(info, dict):
        raise Failure(f"{path}: top level is a {type(info).__name__}, not a dictionary")
    return info


def entry(name, mode):
    info = zipfile.ZipInfo(name, DATE)
    info.create_system = 3  # Unix, so that external_attr holds permissions unzip honours
    info.external_attr = mode << 16 | (0x10 if name.endswith("/") else 0)  # 0x10: MS-DOS directory bit
    info.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
    return info


def build(args):
    name = args.name
    if not name or "/" in name or name in (".", ".."):
        raise Failure(f"--name {name!r}: not usable as a bundle name")
    plist = {"CFBundleIdentifier": f"com.example.{name}", "CFBundleName": name, "CFBundleExecutable": name,
             "CFBundleShortVersionString": args.version, "CFBundleVersion": "1", "MinimumOSVersion": args.minimum_os}
    plist.update(load_info(args))
    try:
        info_plist = plistlib.dumps(plist, fmt=plistlib.FMT_BINARY if args.binary_plist else plistlib.FMT_XML,
                                    sort_keys=True)
    except (TypeError, OverflowError) as e:  # JSON null; an integer beyond 64 bits
        reason = f"integer {e} out of range" if isinstance(e, OverflowError) else e
        raise Failure(f"{args.info or args.info_plist_xml}: cannot be a property list: {reason}")

    app = f"Payload/{name}.app/"
    files = [(app + "_CodeSignature/CodeResources", 0o100644, plistlib.dumps({"files": {}})),
             (app + "Info.plist", 0o100644, info_plist)]
    if args.executable_bytes:
        files.append((app + name, 0o100755, read_bytes(args.executable_bytes)))
    elif not args.no_executable:
        arm64 = macho(CPU_ARM64, 1 if args.encrypted else 0)
        # FairPlay only ever encrypted the device slice; a simulator slice beside it stays clear.
        executable = fat([(CPU_X86_64, macho(CPU_X86_64, 0)), (CPU_ARM64, arm64)]) if args.fat else arm64
        files.append((app + name, 0o100755, executable))
    for path in args.resource:
        files.append((app + pathlib.Path(path).name, 0o100644, read_bytes(path)))
    # An embedded framework: its own bundle (Info.plist, binary) and the files given for its top.
    frameworks = sorted(set(args.framework) | {framework for framework, _ in args.framework_resource})
    for framework in frameworks:
        if not framework or "/" in framework or framework in (".", ".."):
            raise Failure(f"--framework {framework!r}: not usable as a framework name")
        top = f"{app}Frameworks/{framework}.framework/"
        files.append((top + "Info.plist", 0o100644, plistlib.dumps({"CFBundleExecutable": framework})))
        files.append((top + framework, 0o100755, macho(CPU_ARM64, 0)))
    for framework, path in args.framework_resource:
        files.append((f"{app}Frameworks/{framework}.framework/{pathlib.Path(path).name}", 0o100644, read_bytes(path)))
    seen = set()
    for path, _, _ in files:
        if path in seen:
            raise Failure(f"two entries would be {path}: rename a --resource")
        seen.add(path)

    buffer = io.BytesIO()  # built in memory so that a failure leaves no half-written OUT
    with zipfile.ZipFile(buffer, "w") as z:
        for directory in ("Payload/", app):
            z.writestr(entry(directory, 0o40755), b"")
        for path, mode, data in files:
            z.writestr(entry(path, mode), data)
    try:
        pathlib.Path(args.out).write_bytes(buffer.getvalue())
    except OSError as e:
        raise Failure(f"{args.out}: {e.strerror or e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", metavar="OUT.ipa")
    parser.add_argument("--print-macho", metavar="FILE", help="print each slice's cputype and cryptid, then exit")
    parser.add_argument("--name", help="bundle name: Payload/NAME.app/NAME")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--info-plist-xml", metavar="FILE", help="property list whose top-level keys are merged")
    source.add_argument("--info", metavar="FILE.json", help="JSON object whose top-level keys are merged")
    parser.add_argument("--binary-plist", action="store_true", help="write Info.plist in binary format")
    parser.add_argument("--version", default="1.0", help="CFBundleShortVersionString (default 1.0)")
    parser.add_argument("--minimum-os", default="14.0", help="MinimumOSVersion (default 14.0)")
    parser.add_argument("--resource", action="append", default=[], metavar="PATH", help="file to put in NAME.app/")
    parser.add_argument("--framework", action="append", default=[], metavar="NAME",
                        help="embed NAME.framework in NAME.app/Frameworks/")
    parser.add_argument("--framework-resource", action="append", default=[], nargs=2, metavar=("NAME", "PATH"),
                        help="file to put in NAME.framework/ (embedding it)")
    parser.add_argument("--encrypted", action="store_true", help="cryptid 1 in the arm64 slice")
    parser.add_argument("--fat", action="store_true", help="universal executable: x86_64 slice, then arm64")
    parser.add_argument("--no-executable", action="store_true", help="leave the executable out")
    parser.add_argument("--executable-bytes", metavar="FILE", help="use FILE as the executable")
    args = parser.parse_args()
    if args.print_macho:
        if args.out:
            parser.error("--print-macho takes no OUT")
    elif not args.out or not args.name:
        parser.error("OUT.ipa and --name are required (or use --print-macho FILE)")
    elif args.executable_bytes and (args.no_executable or args.fat or args.encrypted):
        parser.error("--executable-bytes replaces the generated executable: drop --no-executable/--fat/--encrypted")
    try:
        if args.print_macho:
            print_macho(args.print_macho)
        else:
            build(args)
    except Failure as e:
        print(f"make_ipa.py: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
