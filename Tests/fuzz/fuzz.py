#!/usr/bin/env python3
"""Runs linkpeek's fuzzers: `python3 Tests/fuzz/fuzz.py [config|frames|html|images|oembed|all] [--seconds N] [--seed S]`.

Each target replays its regression corpus (Tests/fuzz/corpus/<target>/),
then runs random cases from the seed for the time budget. The seed is
printed; a failing input is saved under Tests/fuzz/failures/<target>/.
Exit status 1 when any case failed. `make fuzz` runs each for minutes;
`make test` runs them for a few seconds each (Tests/integration/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_config  # noqa: E402
import fuzz_frames  # noqa: E402
import fuzz_html  # noqa: E402
import fuzz_images  # noqa: E402
import fuzz_oembed  # noqa: E402

TARGETS = {"config": fuzz_config.run, "frames": fuzz_frames.run, "html": fuzz_html.run, "images": fuzz_images.run, "oembed": fuzz_oembed.run}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=[*TARGETS, "all"], nargs="?", default="all")
    parser.add_argument("--seconds", type=float, default=60.0, help="time budget per target")
    parser.add_argument("--seed", type=int, default=None, help="seed (default: a random one, printed first)")
    parser.add_argument("--cases", type=int, default=None, help="stop after this many random cases")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
    # First, before any case runs: a run that hangs or is killed can still be replayed from its log.
    print(f"fuzz: seed {seed} ({'given' if args.seed is not None else 'random'}); "
          f"replay with --seed {seed} (make fuzz FUZZ_SEED={seed})", flush=True)
    failed = False
    for name in TARGETS if args.target == "all" else [args.target]:
        print(f"fuzz {name}: seed {seed}, {args.seconds:g} s", flush=True)
        report = TARGETS[name](args.seconds, seed, args.cases)
        print(report.summary(), flush=True)
        failed |= bool(report.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
