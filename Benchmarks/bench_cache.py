"""The persistent cache with 100,000 entries on disk.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_cache.py [--entries 100000] [--rounds 3]

Builds one cache directory: a few real fetches through `linkpeek fetch`
(which creates the database with linkpeek's own schema), then rows made from
those previews (each with its own URL and `originalURL`) inserted with
Python's sqlite3 up to `--entries`. Then, per round:
  - in-process `getCached` on a cold memory level (the bench-only tool
    `cache-time`), 20,000 random keys: p50 / p99              (target p50 ≤ 50 µs)
  - a fresh daemon on that directory: spawn → `initialize` answered
                                                              (target < 50 ms)
    and idle RSS after it                                     (target < 20 MB)
  - `getCached` over the pipe, 50,000 pipelined on random keys (cold memory)
                                                              (target ≥ 20,000/s)
  - one request outstanding: `getCached` p50 and a fresh-hit `fetch` p50
    on the same keys                                          (target: fetch ≤ 2× getCached)
  - `getCached` p50 / p99 with one outstanding while another process
    (`linkpeek fetch --stdin`) writes 1,000 new entries to the same directory
Medians over rounds. It builds nothing, and writes only to a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "Tests" / "integration"))
sys.path.insert(0, str(HERE))

from bench_daemon import RawDaemon, pipelined, release_binary  # noqa: E402
from fixture_server import FixtureServer  # noqa: E402


def populate(binary: str, server: FixtureServer, cache: str, entries: int, rng: random.Random) -> list[str]:
    """Returns the URLs stored (normalised already, so they are their own keys)."""
    seeds = [server.url(f"/page?title=seed{i}") for i in range(20)]
    subprocess.run([binary, "fetch", "--allow-private-network", "--cache-dir", cache, "--no-subresources", *seeds],
                   check=True, stdout=subprocess.DEVNULL, timeout=120)
    db = sqlite3.connect(os.path.join(cache, "cache.sqlite"))
    rows = db.execute("SELECT originalURL, body, storedAt, expiresAt FROM entry").fetchall()
    templates = [(json.loads(body), stored, expires) for _, body, stored, expires in rows]
    urls = []
    batch = []
    for i in range(entries):
        meta, stored, expires = templates[i % len(templates)]
        url = server.url(f"/page?title=bench{i}&n={rng.randrange(1 << 40)}")
        meta = dict(meta, originalURL=url, url=url, title=f"bench {i}")
        body = json.dumps(meta, sort_keys=True, separators=(",", ":")).encode()
        batch.append((url, url, 0, body, stored, expires, 0, None, None, stored, len(body) + len(url)))
        urls.append(url)
        if len(batch) == 5000:
            db.executemany("INSERT OR REPLACE INTO entry VALUES (?,?,?,?,?,?,?,?,?,?,?)", batch)
            batch.clear()
    db.executemany("INSERT OR REPLACE INTO entry VALUES (?,?,?,?,?,?,?,?,?,?,?)", batch)
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return urls


def latencies(d: RawDaemon, method: str, urls: list[str], start_id: int) -> list[float]:
    out = []
    for i, url in enumerate(urls):
        rid = start_id + i
        params = {"url": url} if method == "getCached" else {"url": url, "fetchSubresources": False}
        msg = d.frame({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        t0 = time.perf_counter()
        d.write(msg)
        while not any(m.get("id") == rid for m in d.read_messages(10)):
            pass
        out.append((time.perf_counter() - t0) * 1000)
    out.sort()
    return out


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(len(values) * p))]


def cache_time_binary(binary: str) -> str:
    """The benchmark tool `cache-time` (`$CACHE_TIME_BIN`, else next to the
    linkpeek binary): `swift build -c release --product cache-time`."""
    path = os.environ.get("CACHE_TIME_BIN") or str(Path(binary).parent / "cache-time")
    if not os.access(path, os.X_OK):
        raise SystemExit(f"no cache-time at {path}; build it (swift build -c release --product cache-time) "
                         "or set CACHE_TIME_BIN")
    return path


def one_round(binary: str, server: FixtureServer, cache: str, urls: list[str], rng: random.Random) -> dict:
    res: dict = {}
    sample = [rng.choice(urls) for _ in range(20_000)]
    out = subprocess.run([cache_time_binary(binary), "--cache-dir", cache], input="\n".join(sample).encode(),
                         capture_output=True, check=True, timeout=300)
    inproc = json.loads(out.stdout)
    assert inproc["hits"] == len(sample), inproc
    res["inproc_p50_us"], res["inproc_p99_us"] = inproc["p50_us"], inproc["p99_us"]

    d = RawDaemon(binary, cache)
    try:
        # A limit above the 100,000 entries' size, so that no prune runs while measuring.
        r = d.call({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"capabilities": {}, "initializationOptions": {"cacheSize": 4096}}})
        res["init_ms"] = (time.perf_counter() - d.t_spawn) * 1000
        assert "result" in r, r
        time.sleep(0.5)
        res["idle_rss_mb"] = d.rss_mb()

        keys = [rng.choice(urls) for _ in range(50_000)]
        reqs = [d.frame({"jsonrpc": "2.0", "id": 10 + i, "method": "getCached", "params": {"url": u}})
                for i, u in enumerate(keys)]
        res["pipe_per_s"] = len(reqs) / pipelined(d, reqs, len(reqs))

        same = [rng.choice(urls) for _ in range(2000)]
        got = latencies(d, "getCached", same, 100_000)
        fetched = latencies(d, "fetch", same, 200_000)
        res["get_p50_ms"], res["fetch_p50_ms"] = pct(got, 0.5), pct(fetched, 0.5)
        res["fetch_over_get"] = res["fetch_p50_ms"] / res["get_p50_ms"]

        new = "\n".join(server.url(f"/page?title=w{i}&r={rng.randrange(1 << 40)}") for i in range(1000))
        writer = subprocess.Popen([binary, "fetch", "--stdin", "--allow-private-network", "--cache-dir", cache,
                                   "--no-subresources", "--concurrency", "32", "--cache-size", "4096"],
                                  stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        feeder = threading.Thread(target=lambda: (writer.stdin.write(new.encode()), writer.stdin.close()))
        feeder.start()
        during, rid = [], 300_000
        while writer.poll() is None:
            during += latencies(d, "getCached", [rng.choice(urls) for _ in range(100)], rid)
            rid += 100
        feeder.join(timeout=10)
        writer.wait(timeout=120)
        during.sort()
        res["during_writes_n"] = len(during)
        res["during_p50_ms"], res["during_p99_ms"] = pct(during, 0.5), pct(during, 0.99)
    finally:
        d.close()
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"seed {seed}")
    rng = random.Random(seed)
    binary = release_binary()
    if binary is None:
        return 2
    server = FixtureServer().start()
    rounds = []
    try:
        with tempfile.TemporaryDirectory() as cache:
            t0 = time.perf_counter()
            urls = populate(binary, server, cache, args.entries, rng)
            size = os.path.getsize(os.path.join(cache, "cache.sqlite")) / 1048576
            print(f"{len(urls)} entries, {size:.1f} MiB, made in {time.perf_counter() - t0:.1f}s", flush=True)
            for r in range(args.rounds):
                rounds.append(one_round(binary, server, cache, urls, rng))
                print(f"round {r + 1}: " + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                                     for k, v in rounds[-1].items()), flush=True)
    finally:
        server.stop()
    med = lambda k: statistics.median(x[k] for x in rounds)  # noqa: E731
    table = [
        ("getCached in process, cold memory, p50 / p99", f"{med('inproc_p50_us'):.1f} / {med('inproc_p99_us'):.1f} µs",
         "p50 ≤ 50 µs", med("inproc_p50_us") <= 50),
        ("spawn → initialize answered", f"{med('init_ms'):.1f} ms", "< 50 ms", med("init_ms") < 50),
        ("idle RSS", f"{med('idle_rss_mb'):.1f} MB", "< 20 MB", med("idle_rss_mb") < 20),
        ("getCached over the pipe, 50,000 pipelined", f"{med('pipe_per_s'):,.0f} /s", "≥ 20,000 /s",
         med("pipe_per_s") >= 20_000),
        ("fresh-hit fetch / getCached, p50, one outstanding",
         f"{med('fetch_p50_ms'):.3f} / {med('get_p50_ms'):.3f} ms = {med('fetch_over_get'):.2f}×", "≤ 2×",
         med("fetch_over_get") <= 2),
        ("getCached p50 / p99 while another process writes 1,000 entries",
         f"{med('during_p50_ms'):.3f} / {med('during_p99_ms'):.3f} ms", "(reads never wait)", True),
    ]
    print(f"\nmedians of {len(rounds)} rounds, {args.entries:,} entries on disk\n")
    print("| measure | figure | target | met |\n| --- | --- | --- | --- |")
    for name, figure, target, met in table:
        print(f"| {name} | {figure} | {target} | {'yes' if met else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
