"""The fuzzers (Tests/fuzz/) as part of the test suite: each target replays its
regression corpus, then runs random cases for FUZZ_SECONDS (default 4) from
FUZZ_SEED (default: a random seed, printed). `make fuzz` runs them longer."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

import fuzz  # noqa: E402


@pytest.mark.parametrize("target", sorted(fuzz.TARGETS))
def test_fuzz(linkpeek_bin, target):
    os.environ.setdefault("LINKPEEK_BIN", linkpeek_bin)
    seconds = float(os.environ.get("FUZZ_SECONDS", "4"))
    seed = int(os.environ["FUZZ_SEED"]) if "FUZZ_SEED" in os.environ else random.SystemRandom().randrange(2 ** 32)
    print(f"fuzz {target}: seed {seed}")
    report = fuzz.TARGETS[target](seconds, seed)
    assert report.cases > 0, f"no random case ran in {seconds}s (seed {seed})"
    assert not report.failures, report.summary()
