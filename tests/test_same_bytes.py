"""Same source, same bytes: on any machine (numbers whatever the BLAS's threads), and on a
busy one (the beat cache's byte comparisons repeated 20 times in one process while two
other processes keep both cores busy: system tier)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from production.paths import ROOT

#: the tests of tests/test_beat_cache.py that compare a render's bytes with another's
BYTE_TESTS = "bytes or cold or longer or damaged or copied or written or jobs"
BUSY = "import time\nend = time.time() + 900\nwhile time.time() < end:\n    sum(range(10**6))\n"


def test_the_ledger_is_the_same_bytes_whatever_threads_the_blas_would_take():
    """A machine with more cores gives numpy's BLAS more threads, which sums a matrix
    product in other pieces: the ledger's last bits differed between one thread and two."""
    printed = {threads: subprocess.run(
        [sys.executable, "render.py", "numbers"], cwd=ROOT, capture_output=True, check=True,
        env={**os.environ, "OPENBLAS_NUM_THREADS": threads}).stdout
        for threads in ("1", "2", "4")}
    assert printed["1"] == printed["2"] == printed["4"]
    assert b'"bottleneck"' in printed["1"]


@pytest.mark.system
def test_the_byte_comparisons_pass_twenty_times_in_a_row_beside_two_busy_processes():
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
    try:
        ran = subprocess.run(
            [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q",
             "--count", "20", "-k", BYTE_TESTS, "tests/test_beat_cache.py"],
            cwd=ROOT, capture_output=True, text=True, timeout=1800)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    last = ran.stdout.strip().splitlines()[-1]
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert " 160 passed" in f" {last}", last  # 8 tests, 20 times each
