"""Fleet mode (issue 23): a fetch answered from Redis by a daemon that never
fetched the URL, against a local (memory) hit, side by side in one run.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_fleet.py [--urls 2000] [--rounds 3]

Starts its own `redis-server` on a free loopback port (no persistence) and a
loopback origin. Daemon A (`--fleet`, its own cache directory) fetches every
URL, which shares them in Redis. Daemon B (`--fleet`, another directory:
another host) then asks for each URL twice in a row, one request
outstanding: the first answer comes from the fleet level (B never fetched
it: not in its memory, not in its SQLite), the second from B's memory. The
two are timed alternately on the same URLs, so both see the same machine.
Reports p50 and p99 of each, and the p99 difference (target < 1 ms).
Medians over rounds (each round a fresh B and fresh URLs).
"""

from __future__ import annotations

import argparse
import http.server
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

from bench_daemon import RawDaemon, release_binary  # noqa: E402
from redis_fixture import RedisServer  # noqa: E402


class FleetDaemon(RawDaemon):
    def __init__(self, binary: str, cache_dir: str, redis_url: str):
        self.t_spawn = time.perf_counter()
        self.p = subprocess.Popen(
            [binary, "serve", "--cache-dir", cache_dir, "--allow-private-network", "--fleet", redis_url,
             "--fleet-origin-rate", "10000"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.fd = self.p.stdout.fileno()
        self.buf = bytearray()
        self.ids = 0

    def fetch(self, url: str) -> tuple[float, dict]:
        self.ids += 1
        start = time.perf_counter()
        answer = self.call({"jsonrpc": "2.0", "id": self.ids, "method": "fetch",
                            "params": {"url": url, "fetchSubresources": False}})
        return time.perf_counter() - start, answer

    def stop(self):
        self.p.stdin.close()
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait(timeout=10)


def origin() -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            name = self.path.rsplit("/", 1)[-1]
            body = (f"<!doctype html><html><head><title>Bench page {name}</title>"
                    f"<meta property=og:description content='A page of the fleet benchmark, number {name}.'>"
                    f"<meta property=og:image content='/img/{name}.png'></head><body></body></html>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "max-age=86400")
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def one_round(binary: str, redis: RedisServer, base: str, urls: int, round_no: int, work: Path) -> dict:
    names = [f"{base}/r{round_no}/u{i}" for i in range(urls)]
    a = FleetDaemon(binary, str(work / f"a{round_no}"), redis.url)
    b = FleetDaemon(binary, str(work / f"b{round_no}"), redis.url)
    try:
        for url in names:
            _, answer = a.fetch(url)
            assert "result" in answer, answer
        fleet, local = [], []
        for url in names:
            seconds, first = b.fetch(url)
            assert first.get("result", {}).get("fromCache") is True, first
            fleet.append(seconds)
            seconds, second = b.fetch(url)
            assert second.get("result", {}).get("fromCache") is True, second
            local.append(seconds)
        return {"fleet_p50": percentile(fleet, 50), "fleet_p99": percentile(fleet, 99),
                "local_p50": percentile(local, 50), "local_p99": percentile(local, 99)}
    finally:
        a.stop()
        b.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--urls", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    binary = release_binary()
    if binary is None:
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-fleet-") as tmp:
        work = Path(tmp)
        (work / "redis").mkdir()
        redis = RedisServer(work / "redis").start()
        httpd = origin()
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        try:
            rounds = [one_round(binary, redis, base, args.urls, n, work) for n in range(args.rounds)]
        finally:
            httpd.shutdown()
            redis.stop()
    med = {key: statistics.median(r[key] for r in rounds) * 1000 for key in rounds[0]}
    difference = med["fleet_p99"] - med["local_p99"]
    print(f"fleet mode, {args.urls} URLs x {args.rounds} rounds, one request outstanding (ms, medians over rounds)")
    print(f"{'answered from':<34}{'p50':>8}{'p99':>8}")
    print(f"{'the fleet level (Redis, first ask)':<34}{med['fleet_p50']:>8.3f}{med['fleet_p99']:>8.3f}")
    print(f"{'a local hit (memory, second ask)':<34}{med['local_p50']:>8.3f}{med['local_p99']:>8.3f}")
    print(f"p99 difference: {difference:.3f} ms (target < 1 ms): {'met' if difference < 1 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
