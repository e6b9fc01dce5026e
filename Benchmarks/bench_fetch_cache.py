"""What the persistent cache costs `linkpeek fetch --stdin`: the
fetch benchmark's 500 loopback pages, fetched with the default cache (a new
cache directory each round, so every page is a miss that is written) and
with `--no-cache`, alternating which goes first, side by side in one run.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_fetch_cache.py [--rounds 5] [--pages 500]
    python3 Benchmarks/bench_fetch_cache.py --bin OLD --bin NEW     # two builds in the same sitting

Prints, per binary, medians of the client's CPU time (user + system, from
its rusage) and peak RSS for both ways, and the cache's extra CPU in percent
(target ≤ 5 %): the median over rounds of the ratio of the round's two runs. It builds nothing and writes only to temporary directories.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_fetch  # noqa: E402
import gen_pages  # noqa: E402

TARGET_PERCENT = 5.0


def run(binary: str, urls: list[str], cache_dir: str | None, timeout: float):
    cmd = [binary, "fetch", "--stdin", "--concurrency", "16", "--no-subresources", "--allow-private-network"]
    cmd += ["--cache-dir", cache_dir] if cache_dir else ["--no-cache"]
    rc, out, _, rss, cpu = bench_fetch.measured(cmd, ("\n".join(urls) + "\n").encode(), timeout)
    results = [json.loads(line) for line in out.splitlines() if line.strip()]
    failed = sum(1 for r in results if "error" in r) + len(urls) - len(results)
    return rc, failed, rss, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--bin", action="append", help="a linkpeek binary (repeatable); default $LINKPEEK_BIN")
    args = ap.parse_args()
    binaries = args.bin or [os.environ.get("LINKPEEK_BIN") or str(HERE.parent / ".build" / "release" / "linkpeek")]
    for binary in binaries:
        if not os.access(binary, os.X_OK):
            print(f"no linkpeek binary at {binary}", file=sys.stderr)
            return 2

    pages = gen_pages.generate(args.pages)
    met = True
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(bench_fetch._fixture("127.0.0.1", pages))
        urls = [server.base_url + p.path for p in pages]
        # One warm-up each: the page cache and the server's first connections.
        for binary in binaries:
            run(binary, urls, None, args.timeout)
        figures = {binary: {"cache": ([], []), "none": ([], [])} for binary in binaries}
        for round_index in range(args.rounds):
            for binary in binaries:
                ways = ["cache", "none"] if round_index % 2 == 0 else ["none", "cache"]
                for way in ways:
                    with tempfile.TemporaryDirectory(prefix="lp-bench-cache-") as tmp:
                        rc, failed, rss, cpu = run(binary, urls, tmp if way == "cache" else None, args.timeout)
                    if rc != 0 or failed:
                        print(f"{binary} ({way}): exit {rc}, {failed} failed", file=sys.stderr)
                        return 1
                    figures[binary][way][0].append(cpu * 1000 / len(urls))
                    figures[binary][way][1].append(rss / 1024)
    print(f"{len(urls)} loopback pages, {args.rounds} rounds, medians (CPU ms per page; peak RSS MB)")
    print(f"{'binary':<40} {'default cache':>20} {'--no-cache':>20} {'cache CPU':>10}")
    for binary in binaries:
        cache_cpu = statistics.median(figures[binary]["cache"][0])
        none_cpu = statistics.median(figures[binary]["none"][0])
        cache_rss = statistics.median(figures[binary]["cache"][1])
        none_rss = statistics.median(figures[binary]["none"][1])
        # Each round's two runs are neighbours in time: the median of their
        # ratios is steadier on a shared machine than the ratio of medians.
        pairs = zip(figures[binary]["cache"][0], figures[binary]["none"][0])
        extra = (statistics.median(cache / none for cache, none in pairs) - 1) * 100
        met = extra <= TARGET_PERCENT
        print(f"{binary[-40:]:<40} {cache_cpu:8.3f} ms {cache_rss:6.1f} MB {none_cpu:8.3f} ms {none_rss:6.1f} MB "
              f"{extra:+8.1f} %")
    print(f"target: the cache costs ≤ {TARGET_PERCENT:.0f} % more CPU: {'met' if met else 'MISSED'} (the last binary's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
