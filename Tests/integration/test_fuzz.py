"""The fuzzers (Tests/fuzz/) as part of the test suite: each target replays its
regression corpus, then runs random cases for FUZZ_SECONDS (default 4) from
FUZZ_SEED, else the suite's fixed LINKPEEK_SEED (printed with a failure, with
the command that replays it). Case N of a seed is the same input on every
machine; a faster machine runs more of them in the same time. `make fuzz`
runs them longer, from a random seed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

import fuzz  # noqa: E402


@pytest.mark.parametrize("target", sorted(fuzz.TARGETS))
def test_fuzz(linkpeek_bin, target):
    os.environ.setdefault("LINKPEEK_BIN", linkpeek_bin)
    seconds = float(os.environ.get("FUZZ_SECONDS", "4"))
    seed = int(os.environ.get("FUZZ_SEED") or os.environ["LINKPEEK_SEED"])
    print(f"fuzz {target}: seed {seed}")
    report = fuzz.TARGETS[target](seconds, seed)
    assert report.cases > 0, f"no random case ran in {seconds}s (seed {seed})"
    assert not report.failures, (f"{report.summary()}\nreplay: FUZZ_SEED={seed} make fuzz, or python3 "
                                 f"Tests/sandbox.py .venv/bin/python Tests/fuzz/fuzz.py {target} --seed {seed}")
