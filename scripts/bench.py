#!/usr/bin/env python3
"""Whole-process wall time of pinctl against OpenSSL's own tools on the same input, as medians and ratios.

    scripts/bench.py verify        # pinctl verify vs openssl verify on a 3-certificate chain
    scripts/bench.py check         # pinctl check vs openssl s_client on one loopback target, then 200 targets

Builds pinctl in release mode first. Figures are for comparison on the same machine in the same run.
"""
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CERTS = os.path.join(ROOT, "certs")
SCRATCH = os.path.join(ROOT, ".build-release")
PINCTL = os.path.join(SCRATCH, "release", "pinctl")
RUNS = int(os.environ.get("RUNS", "20"))
AT = "2026-06-01T00:00:00Z"
AT_EPOCH = "1780272000"


def build():
    # The Swift standard library linked statically, as README's install instructions build it.
    subprocess.run(["swift", "build", "-c", "release", "--product", "pinctl", "--static-swift-stdlib",
                    "--scratch-path", SCRATCH], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)


def timed(argv, expect=0, stdin=subprocess.DEVNULL):
    start = time.perf_counter()
    result = subprocess.run(argv, cwd=CERTS, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if expect is not None and result.returncode != expect:
        sys.exit(f"bench: {' '.join(argv)} exited {result.returncode}, expected {expect}")
    return elapsed


def median_ms(argv, runs=RUNS, expect=0):
    timed(argv, expect)  # warm the page cache
    return statistics.median(timed(argv, expect) for _ in range(runs)) * 1000


def report(name, ours, baseline, baseline_name):
    print(f"{name:<44} {ours:9.2f} ms   {baseline_name:<28} {baseline:9.2f} ms   ratio {ours / baseline:5.2f}")


def bench_verify():
    pinctl = [PINCTL, "verify", "--chain", "leaf-fullchain.pem", "--ca-file", "root-ca.pem", "--host", "pinning.test",
              "--at", AT, "--mode", "publickey", "--pins", "pins/leaf.pin", "--quiet"]
    openssl = ["openssl", "verify", "-x509_strict", "-partial_chain", "-attime", AT_EPOCH, "-CAfile", "root-ca.pem",
               "-untrusted", "intermediate-ca.pem", "-verify_hostname", "pinning.test", "leaf.pem"]
    print(f"median of {RUNS} runs each, whole process")
    report("pinctl verify (3-certificate chain)", median_ms(pinctl), median_ms(openssl), "openssl verify")


def free_port():
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def bench_check():
    port = free_port()
    target = f"127.0.0.1:{port}"
    server = subprocess.Popen(
        ["openssl", "s_server", "-accept", target, "-cert", "leaf.pem", "-key", "leaf.key",
         "-cert_chain", "intermediate-ca.pem", "-quiet", "-naccept", "1000000"],
        cwd=CERTS, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        pinctl = [PINCTL, "check", target, "--servername", "pinning.test", "--ca-file", "root-ca.pem", "--at", AT,
                  "--mode", "publickey", "--pins", "pins/leaf.pin", "--quiet"]
        for _ in range(50):  # wait for the server
            if subprocess.run(pinctl, cwd=CERTS, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
                break
            time.sleep(0.1)
        s_client = ["openssl", "s_client", "-connect", target, "-servername", "pinning.test"]
        print(f"median of {RUNS} runs each, whole process, one openssl s_server on loopback")
        report("pinctl check (one target)", median_ms(pinctl), median_ms(s_client, expect=None), "openssl s_client")

        count = 200
        many = pinctl[:2] + [target] * count + pinctl[3:]
        loop = ["bash", "-c", f"for i in $(seq {count}); do openssl s_client -connect {target} "
                              f"-servername pinning.test </dev/null >/dev/null 2>&1; done"]
        runs = max(3, RUNS // 4)
        ours = median_ms(many, runs=runs)
        report(f"pinctl check ({count} targets, one call)", ours, median_ms(loop, runs=runs, expect=None),
               f"s_client loop x{count}")
        seconds = 5
        out = subprocess.run(["openssl", "s_time", "-connect", target, "-new", "-time", str(seconds)], cwd=CERTS,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True).stdout
        line = next((l for l in out.splitlines() if "connections in" in l and "real seconds" in l), "")
        if line:
            connections = int(line.split()[0])
            real = float(line.split("connections in")[1].split()[0].rstrip(";"))
            rate = connections / real
            ours_rate = count / (ours / 1000)
            print(f"{'handshake rate: pinctl check, 200 targets':<44} {ours_rate:9.1f} /s   "
                  f"{'openssl s_time -new':<28} {rate:9.1f} /s   ratio {ours_rate / rate:5.2f}")
        else:
            print("openssl s_time printed no rate:", out.strip()[:200])
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "verify"
    build()
    {"verify": bench_verify, "check": bench_check}.get(which, lambda: sys.exit(f"bench: unknown benchmark {which}"))()
