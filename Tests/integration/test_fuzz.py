"""The fuzzers (Tests/fuzz/) as part of the test suite: each target replays its
regression corpus, then runs a fixed number of random cases (CASES, times
LINKPEEK_FUZZ_SCALE when set) from FUZZ_SEED, else the suite's fixed
LINKPEEK_SEED (printed with a failure, with the command that replays it).
Case N of a seed is the same input on every machine, and every machine runs
the same cases: a count, not a clock (the counts are what 4 s ran on a loaded
2-core machine, so CI time does not grow). `make fuzz` runs them longer, from
a random seed."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

import fuzz  # noqa: E402


# Random cases per target: about what 4 s ran under load on these machines.
CASES = {"config": 60, "frames": 80, "html": 6, "images": 50, "oembed": 4}


@pytest.mark.parametrize("target", sorted(fuzz.TARGETS))
def test_fuzz(linkpeek_bin, target):
    os.environ.setdefault("LINKPEEK_BIN", linkpeek_bin)
    cases = CASES[target] * max(int(os.environ.get("LINKPEEK_FUZZ_SCALE") or 1), 1)
    seed = int(os.environ.get("FUZZ_SEED") or os.environ["LINKPEEK_SEED"])
    print(f"fuzz {target}: seed {seed}, {cases} cases")
    report = fuzz.TARGETS[target](math.inf, seed, cases)
    assert not report.failures, (f"{report.summary()}\nreplay: python3 Tests/sandbox.py .venv/bin/python "
                                 f"Tests/fuzz/fuzz.py {target} --seed {seed} --cases {cases} --seconds inf")
    assert report.cases == cases, f"{report.cases} of {cases} random cases ran (seed {seed})"
