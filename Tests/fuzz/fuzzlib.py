"""Shared parts of linkpeek's fuzzers: the run loop with its seed and time
budget, byte mutators, the regression corpus and where failures are saved.

Every fuzzer is deterministic for a seed: the cases come from one
`random.Random(seed)`, so a failure is reproduced with `--seed S` (its case
index is printed too). Each case that fails (a signal, a hang past its bound,
output that is not valid JSON, RSS past its bound) is saved under
`Tests/fuzz/failures/<target>/` with the seed and index in its name; moving
it into `Tests/fuzz/corpus/<target>/` keeps it as a regression case, which
every run replays before the random cases.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = HERE / "corpus"
FAILURES = Path(os.environ.get("FUZZ_FAILURES") or HERE / "failures")


def binary() -> str:
    return os.environ.get("LINKPEEK_BIN") or str(REPO / ".build" / "debug" / "linkpeek")


@dataclass
class Report:
    target: str
    seed: int
    cases: int = 0
    corpus_cases: int = 0
    failures: list = field(default_factory=list)

    def fail(self, index: int | str, reason: str, data: bytes, suffix: str = ".bin") -> None:
        FAILURES.joinpath(self.target).mkdir(parents=True, exist_ok=True)
        path = FAILURES / self.target / f"seed{self.seed}-case{index}{suffix}"
        path.write_bytes(data)
        self.failures.append(f"case {index}: {reason} (input saved to {path})")

    def summary(self) -> str:
        lines = [f"fuzz {self.target}: seed {self.seed}, {self.corpus_cases} corpus + {self.cases} random cases, "
                 f"{len(self.failures)} failures"]
        lines += ["  " + f for f in self.failures]
        if self.failures:
            lines.append(f"  reproduce: python3 Tests/fuzz/fuzz.py {self.target} --seed {self.seed}")
        return "\n".join(lines)


def one_object_verdict(m, time_bound: float, exit_codes: tuple[int, ...] = (0,),
                       rss_bound_kb: int | None = None) -> str | None:
    """Why a measured run of a command that prints one JSON object failed
    (`procinfo.run_measured`'s result), or None when it did not: it ran past
    `time_bound`, exited with a code not in `exit_codes`, grew past
    `rss_bound_kb`, or printed anything but one line holding one JSON object."""
    if m.timed_out:
        return f"ran past {time_bound}s"
    if m.returncode not in exit_codes:
        return f"exit code {m.returncode}: {m.stderr[-300:]!r}"
    if rss_bound_kb is not None and m.peak_rss_kb > rss_bound_kb:
        return f"peak RSS {m.peak_rss_kb} KB past {rss_bound_kb} KB"
    try:
        lines = m.stdout.decode().splitlines()
        if len(lines) == 1 and isinstance(json.loads(lines[0]), dict):
            return None
    except (ValueError, UnicodeDecodeError):
        pass
    return f"output is not one JSON object: {m.stdout[:200]!r}"


def corpus(target: str) -> list[Path]:
    folder = CORPUS / target
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")) if folder.is_dir() else []


def deadline_loop(seconds: float, max_cases: int | None = None):
    """Yields case indices until the budget is spent (or `max_cases` ran)."""
    end = time.monotonic() + seconds
    index = 0
    while time.monotonic() < end and (max_cases is None or index < max_cases):
        yield index
        index += 1


# -- byte mutators ------------------------------------------------------------

def bit_flips(rng: random.Random, data: bytes, count: int | None = None) -> bytes:
    if not data:
        return data
    out = bytearray(data)
    for _ in range(count or rng.randint(1, 8)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)] if data else data


def splice(rng: random.Random, a: bytes, b: bytes) -> bytes:
    return a[: rng.randrange(len(a) + 1)] + b[rng.randrange(len(b) + 1):]


def insert(rng: random.Random, data: bytes, piece: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + piece + data[i:]


def duplicate(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    j = rng.randrange(i, min(len(data), i + 256) + 1)
    return data[:j] + data[i:j] * rng.randint(1, 50) + data[j:]


def random_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


def mutate_bytes(rng: random.Random, data: bytes, others: list[bytes]) -> bytes:
    """One or a few generic mutations."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        if kind == 0:
            data = bit_flips(rng, data)
        elif kind == 1:
            data = truncate(rng, data)
        elif kind == 2:
            data = splice(rng, data, rng.choice(others))
        elif kind == 3:
            data = insert(rng, data, random_bytes(rng, rng.randint(1, 32)))
        elif kind == 4:
            data = duplicate(rng, data)
        else:
            data = insert(rng, data, rng.choice([b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\xc3", b"\xed\xa0\x80"]))
    return data
