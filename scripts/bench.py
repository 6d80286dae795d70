#!/usr/bin/env python3
"""Whole-process figures of pinctl against OpenSSL's own tools on the same input, as medians and ratios.

    scripts/bench.py [all]         # every row of issue 12's table, each with its baseline from the same run
    scripts/bench.py --quick all   # the same with fewer runs and smaller lists (10,000 targets, not 100,000)
    scripts/bench.py verify        # pinctl verify vs openssl verify on a 3-certificate chain
    scripts/bench.py check         # pinctl check vs openssl s_client on one loopback target, then 200 targets
    scripts/bench.py callgrind     # instruction counts (valgrind): --version, verify, the system store
    scripts/bench.py platforms     # every platform version against one: verify on a real chain, check --config
                                   # (needs the store snapshot: STORES=DIR, default ../shared/stores)

Builds pinctl first, as README installs it (release, the Swift standard library linked statically). Timed runs of
pinctl and of its baseline alternate, so a change in the machine's load falls on both. Figures are for comparison
on the same machine in the same run; nothing asserts them. RUNS=N sets the number of runs. Every server it
starts listens on loopback and is stopped before it exits; it needs no network.
"""
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CERTS = os.path.join(ROOT, "certs")
SCRATCH = os.path.join(ROOT, ".build-release")
PINCTL = os.path.join(SCRATCH, "release", "pinctl")
QUICK = "--quick" in sys.argv[1:]
RUNS = int(os.environ.get("RUNS", "5" if QUICK else "20"))
# Targets in the peak-RSS and throughput runs: (the small list, the large list).
COUNTS = (1_000, 10_000) if QUICK else (1_000, 100_000)
AT = "2026-06-01T00:00:00Z"
AT_EPOCH = "1780272000"
MIB = 1024 * 1024

VERIFY_ARGS = ["verify", "--chain", "leaf-fullchain.pem", "--host", "pinning.test", "--at", AT,
               "--mode", "publickey", "--pins", "pins/leaf.pin", "--quiet"]
OPENSSL_VERIFY = ["openssl", "verify", "-x509_strict", "-partial_chain", "-attime", AT_EPOCH, "-CAfile", "root-ca.pem",
                  "-untrusted", "intermediate-ca.pem", "-verify_hostname", "pinning.test", "leaf.pem"]


def build():
    # The command README's "Build and install" gives (its own build folder, so a debug build is not disturbed).
    subprocess.run([os.path.join(ROOT, "scripts", "build-release.sh"), "--product", "pinctl",
                    "--scratch-path", SCRATCH], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)


def run(argv, expect=0, stdin=subprocess.DEVNULL, cpu=None):
    """Runs argv to the end: (wall seconds, peak resident set in bytes) of that one process; its CPU seconds (user
    and system, every thread) are appended to the list `cpu` when one is given."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=CERTS, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if expect is not None and process.returncode != expect:
        sys.exit(f"bench: {' '.join(argv[:12])} exited {process.returncode}, expected {expect}")
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    return elapsed, usage.ru_maxrss * 1024


def interleaved(ours, baseline, runs=RUNS, expect=(0, 0), cpu=None):
    """Median wall milliseconds of each command, run alternately; also pinctl's largest peak RSS. With a list `cpu`,
    the median CPU milliseconds of each are appended to it: pinctl reads some files on two threads."""
    run(ours, expect[0])  # warm the page cache
    run(baseline, expect[1])
    mine, theirs, peak = [], [], 0
    mine_cpu, theirs_cpu = [], []
    for _ in range(runs):
        seconds, rss = run(ours, expect[0], cpu=mine_cpu)
        mine.append(seconds)
        peak = max(peak, rss)
        theirs.append(run(baseline, expect[1], cpu=theirs_cpu)[0])
    if cpu is not None:
        cpu += [statistics.median(mine_cpu) * 1000, statistics.median(theirs_cpu) * 1000]
    return statistics.median(mine) * 1000, statistics.median(theirs) * 1000, peak


def cpu_row(cpu):
    """The CPU time of a row's two commands, under it."""
    print(f"{'  CPU time (user and system, every thread)':<46} {cpu[0]:10.2f} ms  {'':<30} {cpu[1]:10.2f} ms  "
          f"ratio {cpu[0] / cpu[1]:5.2f}")


def row(name, ours, baseline, baseline_name, unit="ms", target=None, higher_is_better=False):
    ratio = ours / baseline
    verdict = ""
    if target is not None:
        met = ratio >= target if higher_is_better else ratio <= target
        verdict = f"  target {'≥' if higher_is_better else '≤'} {target:.2f}: {'met' if met else 'NOT met'}"
    print(f"{name:<46} {ours:10.2f} {unit:<3} {baseline_name:<30} {baseline:10.2f} {unit:<3} ratio {ratio:5.2f}{verdict}")


def limit_row(name, value, unit, limit):
    print(f"{name:<46} {value:10.2f} {unit:<3} {'limit':<30} {limit:10.2f} {unit:<3}             "
          f"{'met' if value <= limit else 'NOT met'}")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LoopbackServer:
    """openssl s_server on loopback serving the fixture leaf and intermediate, for as long as the block runs."""

    def __enter__(self):
        self.target = f"127.0.0.1:{free_port()}"
        self.process = subprocess.Popen(
            ["openssl", "s_server", "-accept", self.target, "-cert", "leaf.pem", "-key", "leaf.key",
             "-cert_chain", "intermediate-ca.pem", "-quiet", "-naccept", "100000000"],
            cwd=CERTS, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", int(self.target.split(":")[1]))) == 0:
                    return self
            time.sleep(0.05)
        sys.exit("bench: openssl s_server did not start")

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait()

    def check(self, count=1, targets=None):
        return [PINCTL, "check"] + (targets if targets is not None else [self.target] * count) + [
            "--servername", "pinning.test", "--ca-file", "root-ca.pem", "--at", AT,
            "--mode", "publickey", "--pins", "pins/leaf.pin", "--quiet"]

    def check_list(self, listing):
        """check of every target of the file `listing`, read with --targets-from."""
        return self.check(targets=["--targets-from", listing])

    def s_client(self):
        """s_client given the anchor pinctl gets: without -CAfile it loads the default store first (SSL_CERT_FILE,
        Debian's 140-root bundle), work pinctl's run does not do, and it would go on past a failed verification."""
        return ["openssl", "s_client", "-connect", self.target, "-servername", "pinning.test",
                "-CAfile", "root-ca.pem", "-verify_return_error"]

    def s_time_pair(self, seconds):
        """Handshakes per second of two `openssl s_time -new` run side by side (the machine has two cores)."""
        argv = ["openssl", "s_time", "-connect", self.target, "-new", "-time", str(seconds)]
        processes = [subprocess.Popen(argv, cwd=CERTS, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True) for _ in range(2)]
        rate = 0.0
        for process in processes:
            out = process.communicate()[0]
            line = next((l for l in out.splitlines() if "connections in" in l and "real seconds" in l), "")
            if not line:
                sys.exit("bench: openssl s_time printed no rate: " + out.strip()[:200])
            connections = int(line.split()[0])
            real = float(line.split("connections in")[1].split()[0].rstrip(";"))
            rate += connections / real
        return rate


def parsing_only_args():
    """verify's arguments with a chain file that is not there: pinctl parses its command line (where
    ArgumentParser's reflection costs most of a run), then stops at the first file it opens, exit 2."""
    return [a if a != "leaf-fullchain.pem" else "absent.pem" for a in VERIFY_ARGS] + ["--ca-file", "root-ca.pem"]


def parsing_only():
    """What pinctl spends before any work, against the whole of openssl's run."""
    ours, theirs, _ = interleaved([PINCTL] + parsing_only_args(), OPENSSL_VERIFY, expect=(2, 0))
    row("  pinctl verify, parsing only (no such chain)", ours, theirs, "openssl verify (all of it)")


def bench_verify():
    ours, theirs, _ = interleaved([PINCTL] + VERIFY_ARGS + ["--ca-file", "root-ca.pem"], OPENSSL_VERIFY)
    print(f"median of {RUNS} interleaved runs each, whole process")
    row("pinctl verify (3-certificate chain)", ours, theirs, "openssl verify", target=1.2)
    parsing_only()


def bench_check():
    with LoopbackServer() as server:
        print(f"median of {RUNS} interleaved runs each, whole process, one openssl s_server on loopback")
        ours, theirs, _ = interleaved(server.check(), server.s_client(), expect=(0, None))
        row("pinctl check (one target)", ours, theirs, "openssl s_client", target=1.2)

        count = 200
        loop = ["bash", "-c", f"for i in $(seq {count}); do openssl s_client -connect {server.target} "
                              f"-servername pinning.test -CAfile root-ca.pem -verify_return_error "
                              f"</dev/null >/dev/null 2>&1; done"]
        runs = max(3, RUNS // 4)
        ours, theirs, _ = interleaved(server.check(count), loop, runs=runs, expect=(0, None))
        row(f"pinctl check ({count} targets, one call)", ours, theirs, f"s_client loop x{count}")
        rate = server.s_time_pair(5) / 2
        row(f"handshake rate: pinctl check, {count} targets", count / (ours / 1000), rate, "openssl s_time -new",
            unit="/s", higher_is_better=True)


STORES = os.environ.get("STORES", os.path.join(ROOT, "..", "shared", "stores"))
CHAINS = os.path.join(os.path.dirname(STORES), "chains")
# Every version of every platform the snapshot has, against one version (DESIGN §12: versions at the cost of one).
ALL_PLATFORMS = ["--platform", "android", "--platform", "ios", "--platform", "macos", "--platform", "mozilla"]


def bench_platforms():
    if not os.path.isfile(os.path.join(STORES, "FORMAT")):
        sys.exit(f"bench: no store snapshot in {STORES} (set STORES=DIR; scripts/build-stores.sh builds one)")
    with tempfile.TemporaryDirectory() as directory:
        # The Debian package's copy has an index of the roots' names (scripts/index-stores.sh), the team's snapshot
        # none yet: both are measured, each against one version of itself.
        indexed = os.path.join(directory, "stores")
        shutil.copytree(STORES, indexed)
        subprocess.run([os.path.join(ROOT, "scripts", "index-stores.sh"), "--force", indexed], check=True,
                       stdout=subprocess.DEVNULL)
        bench_platforms_on(STORES, "")
        bench_platforms_on(indexed, ", indexed")


def bench_platforms_on(stores, label):
    chain = os.path.join(CHAINS, "stackoverflow.com.pem")
    verify = [PINCTL, "verify", "--chain", chain, "--host", "stackoverflow.com", "--at", "2026-03-01T00:00:00Z",
              "--stores", stores, "--quiet"]
    print(f"median of {RUNS} interleaved runs each, whole process; snapshot {stores}")
    # Exit 1: the chain is rejected on the versions without ISRG Root X1.
    cpu = []
    ours, theirs, _ = interleaved(verify + ALL_PLATFORMS, verify + ["--platform", "android@25"], expect=(1, 0),
                                  cpu=cpu)
    row(f"verify, every version of every platform{label}", ours, theirs, "verify, android@25", target=1.3)
    cpu_row(cpu)

    apps = "".join(f"""
  - name: app{index}
    library: afnetworking
    hosts: [pinning.test]
    policy: {{ mode: publickey, pins: [{os.path.join(CERTS, "pins", "leaf.pin")}] }}""" for index in range(5))
    with LoopbackServer() as server, tempfile.TemporaryDirectory() as directory:
        targets = "".join(f"\n  - {server.target}" for _ in range(4))
        def config(platforms):
            return target_list(directory, f"pinctl-{len(platforms)}.yaml", [
                f"anchors: {{ ca-files: [{os.path.join(CERTS, 'root-ca.pem')}] }}", f"targets:{targets}",
                f"platforms: [{', '.join(platforms)}]" if platforms else "", f"apps:{apps}"])
        base = [PINCTL, "check", "--servername", "pinning.test", "--at", AT, "--stores", stores, "--quiet", "--config"]
        everywhere = config(["android", "ios", "macos", "mozilla"])
        # Apps that do not target API 23 or lower do not trust the file's anchors (the user's) on Android 7.0 and
        # later: rejected there, so the exit status is not 0; the work is the same.
        cpu = []
        ours, theirs, _ = interleaved(base + [everywhere], base + [config(["android@25"])], expect=(None, None),
                                      cpu=cpu)
        row(f"check --config, 4 targets x 5 apps, all versions{label}", ours, theirs, "the same, android@25",
            target=1.3)
        cpu_row(cpu)
        # With and without platforms: what naming every version adds to a check that names none.
        cpu = []
        ours, theirs, _ = interleaved(base + [everywhere], base + [config([])], expect=(None, 0), cpu=cpu)
        row(f"check --config, 4 targets x 5 apps, all versions{label}", ours, theirs, "the same, no platform")
        cpu_row(cpu)


def target_list(directory, name, lines):
    path = os.path.join(directory, name)
    with open(path, "w") as listing:
        listing.writelines(line + "\n" for line in lines)
    return path


class SilentListener:
    """A loopback port that listens and never accepts: a handshake with it waits out pinctl's --timeout."""

    def __enter__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1024)
        self.target = f"127.0.0.1:{self.sock.getsockname()[1]}"
        return self

    def __exit__(self, *_):
        self.sock.close()


def peak_rss(argv, runs):
    """The largest peak RSS and the median wall seconds of `runs` runs of argv."""
    run(argv)  # warm the page cache
    results = [run(argv) for _ in range(runs)]
    return max(rss for _, rss in results), statistics.median(seconds for seconds, _ in results)


def bench_all():
    """Every row of issue 12's table, in its order, each beside its baseline from this run."""
    print(f"pinctl {subprocess.run([PINCTL, '--version'], capture_output=True, text=True).stdout.strip()}, "
          f"{subprocess.run(['openssl', 'version'], capture_output=True, text=True).stdout.strip()}; "
          f"medians of {RUNS} interleaved runs, whole process{' (--quick)' if QUICK else ''}")
    ours, theirs, _ = interleaved([PINCTL, "--version"], ["openssl", "version"])
    row("pinctl --version", ours, theirs, "openssl version", target=1.2)

    with_ca_file = [PINCTL] + VERIFY_ARGS + ["--ca-file", "root-ca.pem"]
    ours, theirs, _ = interleaved(with_ca_file, OPENSSL_VERIFY)
    row("pinctl verify (3-cert chain, --ca-file)", ours, theirs, "openssl verify", target=1.2)
    parsing_only()

    with LoopbackServer() as server, tempfile.TemporaryDirectory(prefix="pinctl-bench-") as scratch:
        ours, theirs, _ = interleaved(server.check(), server.s_client(), expect=(0, None))
        row("pinctl check (one loopback target)", ours, theirs, "openssl s_client", target=1.2)

        # The fixture chain does not lead to a root of the system store: rejected (exit 1), after the same work.
        system = [PINCTL] + VERIFY_ARGS
        ours, theirs, _ = interleaved(system, with_ca_file, expect=(1, 0))
        row("pinctl verify, system store", ours, theirs, "pinctl verify --ca-file", target=1.2)
        if "SSL_CERT_FILE" in os.environ:
            # SSL_CERT_FILE makes OpenSSL (and pinctl, which honours it) parse the whole bundle it names before the
            # first lookup; without it the hashed directory is read one file per issuer looked up. Both sides go
            # through env, so its own start cancels out.
            unset = ["env", "-u", "SSL_CERT_FILE"]
            ours, theirs, _ = interleaved(unset + system, unset + with_ca_file, expect=(1, 0))
            row("  the same without SSL_CERT_FILE", ours, theirs, "pinctl verify --ca-file", target=1.2)

        size = os.path.getsize(PINCTL)
        stripped = os.path.join(scratch, "pinctl")
        # What README's `install -s` puts in /usr/local/bin.
        subprocess.run(["strip", "-o", stripped, PINCTL], check=True)
        installed = os.path.getsize(stripped)
        limit_row("binary as built (MB)", size / 1e6, "MB", 15)
        limit_row("binary as installed, stripped (MB)", installed / 1e6, "MB", 15)

        small, large = COUNTS
        runs = max(3, RUNS // 4)
        small_list = target_list(scratch, "small.txt", [server.target] * small)
        peak, _ = peak_rss(server.check_list(small_list), runs)
        limit_row(f"peak RSS, check of {small:,} targets (MiB)", peak / MIB, "MiB", 20)
        large_list = target_list(scratch, "large.txt", [server.target] * large)
        seconds, peak = run(server.check_list(large_list))
        limit_row(f"peak RSS, check of {large:,} targets (MiB)", peak / MIB, "MiB", 25)
        print(f"{'':<46} ({seconds:.1f} s, {large / seconds:.0f} handshakes/s)")

        # Alternated with the baseline, as the timed rows are, so both see the same load.
        times, rates = [], []
        run(server.check_list(small_list))
        for _ in range(runs):
            times.append(run(server.check_list(small_list))[0])
            rates.append(server.s_time_pair(1 if QUICK else 3))
        row(f"bulk handshakes/s, check of {small:,} targets", small / statistics.median(times),
            statistics.median(rates), "2 parallel openssl s_time -new", unit="/s", target=0.95,
            higher_is_better=True)

        # Not a row of the table: what sizes --jobs' default. A silent target should cost one slot's wait.
        with SilentListener() as silent:
            targets = [silent.target if i % 6 == 0 else server.target for i in range(300)]
            listing = target_list(scratch, "silent.txt", targets)
            argv = server.check_list(listing) + ["--timeout", "2"]
            default, wide, _ = interleaved(argv, argv + ["--jobs", "256"], runs=max(2, RUNS // 10), expect=(3, 3))
        row("check 300 targets, 50 silent, --timeout 2", default, wide, "the same with --jobs 256")


def demangle(lines):
    tool = shutil.which("swift-demangle") or shutil.which("swift")
    if not tool:
        return lines
    argv = [tool, "--simplified"] if tool.endswith("demangle") else [tool, "demangle", "--simplified"]
    return subprocess.run(argv, input="\n".join(lines), capture_output=True, text=True).stdout.splitlines()


def callgrind(name, argv, top, expect):
    """Instructions of one run of argv under callgrind: the total and the `top` heaviest functions, inclusive."""
    with tempfile.TemporaryDirectory(prefix="pinctl-callgrind-") as scratch:
        out = os.path.join(scratch, "callgrind.out")
        result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv, cwd=CERTS,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != expect:
            sys.exit(f"bench: {name} under valgrind exited {result.returncode}: {result.stderr[-400:]}")
        total = int(re.search(r"Collected : (\d+)", result.stderr).group(1))
        annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], capture_output=True,
                                   text=True).stdout.splitlines()
    print(f"{name}: {total:,} instructions")
    body = [l for l in annotated if re.match(r"^\s*[\d,]+ \(", l)]
    shown = 0
    for line in demangle(body[1:]):  # the first is the program total
        if shown == top:
            break
        print("    " + (line if len(line) < 160 else line[:157] + "..."))
        shown += 1
    return total


def bench_callgrind():
    # valgrind 3.19 cannot read the DWARF 5 debug information clang writes: count a copy without it.
    binary = os.path.join(SCRATCH, "pinctl-nodebug")
    subprocess.run(["objcopy", "--strip-debug", PINCTL, binary], check=True)
    top = int(os.environ.get("TOP", "25"))
    with_ca_file = [binary] + VERIFY_ARGS + ["--ca-file", "root-ca.pem"]
    # (name, argv, expected exit) of pinctl, then of its baseline.
    pairs = [
        (("pinctl --version", [binary, "--version"], 0), ("openssl version", ["openssl", "version"], 0)),
        (("pinctl verify --ca-file", with_ca_file, 0), ("openssl verify", OPENSSL_VERIFY, 0)),
        (("pinctl verify, parsing only", [binary] + parsing_only_args(), 2), ("openssl verify", OPENSSL_VERIFY, 0)),
        # The fixture chain leads to no system root: rejected, after looking the system store up (SSL_CERT_FILE's
        # bundle and the hashed directory, whichever the environment names).
        (("pinctl verify, system store", [binary] + VERIFY_ARGS, 1), ("pinctl verify --ca-file", with_ca_file, 0)),
    ]
    for (ours_name, ours, ours_status), (theirs_name, theirs, theirs_status) in pairs:
        mine = callgrind(ours_name, ours, top, ours_status)
        base = callgrind(theirs_name, theirs, top, theirs_status)
        print(f"ratio {ours_name} / {theirs_name}: {mine / base:.2f}\n")


if __name__ == "__main__":
    arguments = [argument for argument in sys.argv[1:] if argument != "--quick"]
    which = arguments[0] if arguments else "all"
    benches = {"all": bench_all, "verify": bench_verify, "check": bench_check, "callgrind": bench_callgrind,
               "platforms": bench_platforms}
    if which not in benches:
        sys.exit(f"bench: unknown benchmark {which} (expected {', '.join(benches)})")
    build()
    benches[which]()
