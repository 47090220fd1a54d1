"""Same source, same bytes, on a busy machine: the beat cache's byte comparisons repeated
20 times in one process while two other processes keep both cores busy (system tier)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from production.paths import ROOT

#: the tests of tests/test_beat_cache.py that compare a render's bytes with another's
BYTE_TESTS = "bytes or cold or longer or damaged or copied or written or jobs"
BUSY = "import time\nend = time.time() + 900\nwhile time.time() < end:\n    sum(range(10**6))\n"


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
