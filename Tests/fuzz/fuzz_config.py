"""Fuzzes the configuration file: mutated TOML (keys, [[site]] rules, deep
nesting, NUL bytes, invalid UTF-8, huge strings) checked by `linkpeek config
check FILE`. Each run must end by itself within the bound with status 0 (a
good file) or 2 (a bad one, said on stderr in sentences naming the file), never
a signal: toml++ under TOMLKit must never see bytes that could stop the process.

Each case that the parser read runs a second time with its cache (the parsed
document kept under `XDG_CACHE_HOME`, here the work directory) damaged at
random: the answer must be the first one, byte for byte. A damaged cache is
ignored, and one that still decodes gives values checked as the parser's.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
from pathlib import Path

import fuzzlib

TIME_BOUND = 10.0

SEEDS = [
    b'timeout = 12\nuserAgent = "ua"\nallowNetwork = ["10.0.0.0/8"]\n[hover]\nfetch = "allowList"\nallow = ["*.a.test"]\n',
    b'[[site]]\nmatch = ["*.reddit.com", "a.test/docs"]\nuserAgent = "bot"\nheaders = { "X-A" = "1" }\n'
    b'failureTTL = { notFound = 600, dns = 5 }\nminTTL = 1\nmaxTTL = 2\nfetch = "cacheOnly"\ntoken = "t"\n',
    b'[[site]]\nmatch = "https://api.a.test"\nallowCredentials = true\nheaders = { Authorization = "x" }\n',
    b'a = 1979-05-27T07:32:00Z\nb = 07:32:00\nc = 1979-05-27\nd = inf\ne = nan\nf = 0x7fffffffffffffff\n',
]
PIECES = [b"[" * 40, b"{" * 40, b"a = [" * 20, b"\x00", b"\xc3", b"\xff", b'"\\u0000"', b'"\\U0010FFFF"',
          b"'''", b'"""', b"[[site]]\n", b"[hover]\n", b"x" * 70_000, b"1e400", b"-0", b"= =", b"\r\n",
          b"a.b.c.d.e.f.g.h = 1\n", b"[a.b.c.d.e.f.g]\n", b"9223372036854775808"]


def config_check(path: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "XDG_CACHE_HOME": str(path.parent / "cache")}
    return subprocess.run([fuzzlib.binary(), "config", "check", str(path)], capture_output=True,
                          timeout=TIME_BOUND, env=environment)


def check(report: fuzzlib.Report, index, path: Path, data: bytes, rng: random.Random | None = None) -> None:
    try:
        done = config_check(path)
    except subprocess.TimeoutExpired:
        report.fail(index, f"still running after {TIME_BOUND} s", data, ".toml")
        return
    if done.returncode not in (0, 2):
        report.fail(index, f"exit status {done.returncode}", data, ".toml")
    elif done.returncode == 2 and str(path).encode() not in done.stderr:
        report.fail(index, "status 2 without a sentence naming the file", data, ".toml")
    elif rng is not None:
        damage_cache(report, index, path, data, rng, done)


def damage_cache(report: fuzzlib.Report, index, path: Path, data: bytes, rng: random.Random,
                 first: subprocess.CompletedProcess) -> None:
    """The same case again with its cache damaged (if the parser read it and wrote one)."""
    caches = list((path.parent / "cache" / "linkpeek").glob("config-*.cache"))
    for cache in caches:
        kept = cache.read_bytes()
        cache.write_bytes(fuzzlib.mutate_bytes(rng, kept, [kept[: len(kept) // 2]]))
    if not caches:
        return
    try:
        again = config_check(path)
    except subprocess.TimeoutExpired:
        report.fail(index, f"still running after {TIME_BOUND} s with its cache damaged", data, ".toml")
        return
    if (again.returncode, again.stdout, again.stderr) != (first.returncode, first.stdout, first.stderr):
        report.fail(index, f"another answer with its cache damaged: {again.returncode} {again.stderr[-300:]!r}",
                    data, ".toml")
    for cache in caches:
        cache.unlink(missing_ok=True)


def run(seconds: float, seed: int, max_cases: int | None = None) -> fuzzlib.Report:
    report = fuzzlib.Report("config", seed)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="fuzz-config-") as work:
        path = Path(work) / "config.toml"
        for corpus in fuzzlib.corpus("config"):
            path.write_bytes(corpus.read_bytes())
            check(report, corpus.name, path, corpus.read_bytes())
            report.corpus_cases += 1
        for index in fuzzlib.deadline_loop(seconds, max_cases):
            data = rng.choice(SEEDS)
            for _ in range(rng.randint(1, 4)):
                data = fuzzlib.insert(rng, data, rng.choice(PIECES)) if rng.random() < 0.4 \
                    else fuzzlib.mutate_bytes(rng, data, SEEDS)
            path.write_bytes(data)
            check(report, index, path, data, rng)
            report.cases += 1
    return report
