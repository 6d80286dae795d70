#!/usr/bin/env python3
"""Writes Linker/pinctl-serve.order: the functions the exporter runs, in the order its release link lays them out.

    scripts/make-symbol-order.py     # after a change to the exporter's code path; takes about two minutes

Why: the kernel maps an executable's code into a process in blocks of 64 KB or more around each page it runs, so
code that runs scattered among code that never runs costs resident memory for all of it. pinctl-serve ran 1.6 MB
of its 17 MB of code under load and had 12.7 MB of it resident. Package.swift's release link hands this file to lld
(--symbol-ordering-file), which puts those functions first and together; scripts/build-release.sh gives every
function a section of its own so that the linker can move it.

How: builds pinctl-serve as scripts/build-release.sh does (with a link map, which says which functions share a
section), runs it under valgrind's callgrind while it starts, answers 160 probes 8 at a time of a loopback
openssl s_server through a policy file of two apps (as scripts/bench-exporter.sh probes), a probe of a closed port
and one of a domain no app covers, /metrics and the status page, and lists every function that ran. Functions in
sections of their own come first, in the order of the build; then the sections the toolchain's prebuilt libraries
share between many functions (the standard library's, Foundation's), the busiest first, as the linker moves them
whole. A function missing from the file (new since it was written) still links, only away from the others: nothing
but memory depends on it being current.

Needs valgrind and openssl. No network beyond loopback; everything it starts is stopped, and its files removed.
"""
import collections
import concurrent.futures
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, ".build-release")
LIBRARIES = os.path.join(ROOT, "certs", "libraries")
ORDER = os.path.join(ROOT, "Linker", "pinctl-serve.order")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    sys.exit(f"make-symbol-order: nothing listens on 127.0.0.1:{port} after {seconds} s")


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=120) as answer:
            return answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.read().decode()


def build(scratch):
    """The release pinctl-serve, and the link map of that build."""
    link_map = os.path.join(scratch, "pinctl-serve.map")
    subprocess.run([os.path.join(ROOT, "scripts", "build-release.sh"), "--product", "pinctl-serve",
                    "--scratch-path", SCRATCH, "-Xlinker", f"-Map={link_map}", "-Xlinker", "--no-demangle"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    binary = os.path.join(SCRATCH, "release", "pinctl-serve")
    # valgrind 3.19 cannot read the DWARF 5 debug information clang writes; the symbol table is all it needs.
    stripped = os.path.join(scratch, "pinctl-serve")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    return stripped, link_map


def run_functions(binary, scratch):
    """Names of every function that ran in pinctl-serve over the session the docstring describes."""
    target_port, serve_port = free_port(), free_port()
    chain = os.path.join(scratch, "chain.pem")
    with open(chain, "w") as out:
        for name in ("leaf.pem", "intermediate-ca.pem"):
            with open(os.path.join(LIBRARIES, name)) as part:
                out.write(part.read())
    # "file sha256/… sha1/…" a line, after a comment.
    pins = {fields[0]: fields[1] for fields in (line.split() for line in open(os.path.join(LIBRARIES, "spki-pins.txt")))
            if fields and not fields[0].startswith("#")}
    policy = os.path.join(scratch, "pinctl.yaml")
    with open(policy, "w") as out:
        out.write(f"""version: 1
anchors: {{ ca-files: [{LIBRARIES}/root-ca.pem] }}
targets: ["127.0.0.1:{target_port}"]
apps:
  - name: okhttp-leaf
    library: okhttp
    policy: {{ pins: {{ "api.example.com": [{pins["leaf.pem"]}] }} }}
  - name: trustkit-intermediate
    library: trustkit
    policy:
      domains:
        api.example.com: {{ publicKeyHashes: [{pins["intermediate-ca.pem"][7:]}, {pins["leaf.pem"][7:]}] }}
""")
    server = subprocess.Popen(
        ["openssl", "s_server", "-accept", f"127.0.0.1:{target_port}", "-cert", "leaf.pem", "-key", "leaf.key",
         "-cert_chain", "intermediate-ca.pem", "-www", "-quiet", "-naccept", "100000000"],
        cwd=LIBRARIES, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    profile = os.path.join(scratch, "callgrind.out")
    serve = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}", binary, "serve",
         "--config", policy, "--listen", f"127.0.0.1:{serve_port}", "--log-level", "notice"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(target_port, 10)
        wait_for_port(serve_port, 120)
        base = f"http://127.0.0.1:{serve_port}"
        probe = f"{base}/probe?target=127.0.0.1:{target_port}&servername=api.example.com"
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(fetch, [probe] * 160))
        if not all("\nprobe_success 1" in answer for answer in answers):
            sys.exit("make-symbol-order: a probe did not succeed:\n" + next(
                answer for answer in answers if "\nprobe_success 1" not in answer))
        fetch(f"{base}/probe?target=127.0.0.1:{free_port()}&servername=api.example.com")
        fetch(f"{base}/probe?target=127.0.0.1:{target_port}&servername=other.example.com")
        fetch(f"{base}/metrics")
        fetch(f"{base}/")
        # Under valgrind the exporter does not finish its graceful stop: have callgrind write what it counted, then
        # end the process.
        subprocess.run(["callgrind_control", "--dump", str(serve.pid)], check=True, stdout=subprocess.DEVNULL)
        dumps = []
        for _ in range(300):
            dumps = [name for name in os.listdir(scratch) if name.startswith("callgrind.out.")]
            if dumps and os.path.getsize(os.path.join(scratch, dumps[0])) > 0:
                break
            time.sleep(0.2)
        time.sleep(2)  # the dump is written in one go, but give it the time to close the file
    finally:
        serve.send_signal(signal.SIGKILL)
        serve.wait()
        server.terminate()
        server.wait()
    if not dumps:
        sys.exit("make-symbol-order: callgrind wrote no profile")
    names = set()
    for line in open(os.path.join(scratch, dumps[0]), errors="replace"):
        found = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
        if found:
            names.add(found.group(1))
    return names


def text_sections(link_map):
    """The input sections of .text in link order, each as (its name, the symbols the map lists in it)."""
    sections = []
    in_text = False
    entry = re.compile(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+\s(.*)$")
    for line in open(link_map, errors="replace"):
        found = entry.match(line.rstrip("\n"))
        if not found:
            continue
        # An output section starts in the name's first column, an input section 8 columns in, a symbol 16.
        name = found.group(1)
        depth = len(name) - len(name.lstrip(" "))
        name = name.strip()
        if depth == 0:
            if in_text and name != ".text":
                break
            in_text = name == ".text"
        elif in_text and depth == 8:
            sections.append((name, []))
        elif in_text and depth >= 16 and sections:
            sections[-1][1].append(name)
    if not sections:
        sys.exit(f"make-symbol-order: no .text in the link map {link_map}")
    return sections


def order(sections, ran):
    """Functions that ran in sections of their own, in link order; then those of shared sections, busiest first."""
    own, shared = [], []
    for name, symbols in sections:
        running = [symbol for symbol in symbols if symbol in ran]
        if not running:
            continue
        # `file.o:(.text)` holds every function of a file compiled without sections of their own.
        if name.endswith(":(.text)"):
            shared.append((len(running), running))
        else:
            own.extend(running)
    shared.sort(key=lambda section: -section[0])
    listed, seen = [], set()
    for symbol in own + [symbol for _, running in shared for symbol in running]:
        if symbol not in seen:
            seen.add(symbol)
            listed.append(symbol)
    return listed, len(own), len(shared)


def main():
    if len(sys.argv) > 1:
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)
    for tool in ("valgrind", "callgrind_control", "openssl", "objcopy"):
        if shutil.which(tool) is None:
            sys.exit(f"make-symbol-order: {tool} is not installed")
    with tempfile.TemporaryDirectory(prefix="pinctl-symbol-order-") as scratch:
        print("make-symbol-order: building pinctl-serve (release, with a link map)", file=sys.stderr)
        binary, link_map = build(scratch)
        print("make-symbol-order: running it under callgrind (about a minute)", file=sys.stderr)
        ran = run_functions(binary, scratch)
        listed, own, shared = order(text_sections(link_map), ran)
    with open(ORDER, "w") as out:
        out.write("# The functions pinctl-serve runs, in the order its release link lays them out (Package.swift,\n"
                  "# --symbol-ordering-file). Written by scripts/make-symbol-order.py, which says why and how;\n"
                  "# run it again after changing the exporter's code path.\n")
        out.writelines(symbol + "\n" for symbol in listed)
    print(f"make-symbol-order: {len(listed)} functions ({own} in sections of their own, then {shared} shared "
          f"sections) in {os.path.relpath(ORDER, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
