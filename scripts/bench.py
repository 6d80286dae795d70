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
PINCTL = os.path.join(ROOT, ".build", "release", "pinctl")
RUNS = int(os.environ.get("RUNS", "20"))
AT = "2026-06-01T00:00:00Z"
AT_EPOCH = "1780272000"


def build():
    subprocess.run(["swift", "build", "-c", "release", "--product", "pinctl"], cwd=ROOT, check=True,
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


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "verify"
    build()
    {"verify": bench_verify}.get(which, lambda: sys.exit(f"bench: unknown benchmark {which}"))()
