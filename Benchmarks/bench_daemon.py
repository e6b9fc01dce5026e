"""linkpeek serve over real pipes: start-up, getCached throughput and latency, idle RSS, RSS growth.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_daemon.py [--rounds 3]

Per round, a fresh daemon (`serve --cache-dir <temp> --allow-private-network`):
  - time from spawn to the `initialize` answer            (target < 50 ms)
  - idle RSS after initialize                              (target < 20 MB)
  - getCached hits/s, 50,000 requests pipelined            (target ≥ 20,000/s)
  - getCached latency with one request outstanding, p50/p99 (target p99 < 1 ms)
  - RSS after 1,000 and after 10,000 fetches of fast local pages, mostly cached
    (200 distinct URLs, 64 in flight)                      (target: difference < 10 MB)
Medians over rounds, printed as a table. It builds nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
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

from fixture_server import FixtureServer  # noqa: E402

HEADER = re.compile(rb"Content-Length: *(\d+)\r\n(?:[^\r\n]+\r\n)*\r\n", re.I)


class RawDaemon:
    """The thinnest LSP-framed client: bytes out, frames in, no threads on the read side."""

    def __init__(self, binary: str, cache_dir: str):
        self.t_spawn = time.perf_counter()
        self.p = subprocess.Popen([binary, "serve", "--cache-dir", cache_dir, "--allow-private-network"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.fd = self.p.stdout.fileno()
        self.buf = bytearray()

    @staticmethod
    def frame(msg: dict) -> bytes:
        body = json.dumps(msg, separators=(",", ":")).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def write(self, data: bytes):
        self.p.stdin.write(data)

    def read_messages(self, timeout: float = 30.0) -> list:
        """Block for at least one whole message; return every whole message buffered."""
        deadline = time.perf_counter() + timeout
        while True:
            out, pos = [], 0
            buf = self.buf
            while True:
                m = HEADER.match(buf, pos)
                if not m:
                    break
                end = m.end() + int(m.group(1))
                if len(buf) < end:
                    break
                try:
                    out.append(json.loads(buf[m.end():end]))
                except ValueError as e:
                    raise ValueError(f"bad frame from the daemon ({e}): {bytes(buf[pos:end])[:2000]!r}") from None
                pos = end
            if pos:
                del buf[:pos]  # once per read, not once per message
            if out:
                return out
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("daemon did not answer")
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    raise EOFError("daemon closed its output")
                self.buf += chunk

    def call(self, msg: dict, timeout: float = 30.0) -> dict:
        self.write(self.frame(msg))
        while True:
            for m in self.read_messages(timeout):
                if m.get("id") == msg["id"] and "method" not in m:
                    return m

    def rss_mb(self) -> float:
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self):
        try:
            self.call({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"}, 10)
            self.write(self.frame({"jsonrpc": "2.0", "method": "exit"}))
            self.p.stdin.close()
            self.p.wait(timeout=10)
        except Exception:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait(timeout=5)


def pipelined(d: RawDaemon, requests: list[bytes], expect: int, timeout: float = 120) -> float:
    """Write all requests from a thread while reading; return seconds until `expect` answers
    (only getCached requests are in flight here, so every frame read is one of them)."""
    blob = b"".join(requests)
    t0 = time.perf_counter()

    def writer():
        d.write(blob)
    w = threading.Thread(target=writer, daemon=True)
    w.start()
    got = 0
    deadline = t0 + timeout
    while got < expect:  # count frames without decoding them, so the reader is not what is measured
        pos, buf = 0, d.buf
        while True:
            m = HEADER.match(buf, pos)
            if not m or len(buf) < m.end() + int(m.group(1)):
                break
            pos = m.end() + int(m.group(1))
            got += 1
        del buf[:pos]
        if got >= expect:
            break
        if time.perf_counter() > deadline:
            raise TimeoutError(f"{got} of {expect} answers")
        r, _, _ = select.select([d.fd], [], [], 1)
        if r:
            chunk = os.read(d.fd, 1 << 20)
            if not chunk:
                raise EOFError("daemon closed its output")
            buf += chunk
    elapsed = time.perf_counter() - t0
    w.join(timeout=10)
    return elapsed


def fetch_many(d: RawDaemon, urls: list[str], count: int, start_id: int, window: int = 64) -> int:
    """`count` fetches over `urls` in turn, at most `window` in flight; returns errors seen."""
    sent = done = errors = 0
    next_id = start_id
    while done < count:
        while sent < count and sent - done < window:
            url = urls[sent % len(urls)]
            d.write(d.frame({"jsonrpc": "2.0", "id": next_id, "method": "fetch",
                             "params": {"url": url, "fetchSubresources": False}}))
            next_id += 1
            sent += 1
        for m in d.read_messages(60):
            if "id" in m and "method" not in m:
                done += 1
                errors += "error" in m
    return errors


def one_round(binary: str, server: FixtureServer, n_pipelined: int, n_latency: int) -> dict:
    res: dict = {}
    with tempfile.TemporaryDirectory() as cache:
        d = RawDaemon(binary, cache)
        try:
            r = d.call({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                        "params": {"processId": os.getpid(), "capabilities": {}}})
            res["init_ms"] = (time.perf_counter() - d.t_spawn) * 1000
            assert "result" in r, r
            d.write(d.frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
            time.sleep(0.5)
            res["idle_rss"] = d.rss_mb()

            url = server.url("/page?title=bench-cached")
            r = d.call({"jsonrpc": "2.0", "id": 1, "method": "fetch", "params": {"url": url}})
            assert "result" in r, r
            assert d.call({"jsonrpc": "2.0", "id": 2, "method": "getCached", "params": {"url": url}})["result"]

            reqs = [d.frame({"jsonrpc": "2.0", "id": 10 + i, "method": "getCached", "params": {"url": url}})
                    for i in range(n_pipelined)]
            res["hits_per_s"] = n_pipelined / pipelined(d, reqs, n_pipelined)

            lat = []
            base = 10 + n_pipelined
            for i in range(n_latency):
                msg = d.frame({"jsonrpc": "2.0", "id": base + i, "method": "getCached", "params": {"url": url}})
                t0 = time.perf_counter()
                d.write(msg)
                while not any(m.get("id") == base + i for m in d.read_messages(10)):
                    pass
                lat.append((time.perf_counter() - t0) * 1000)
            lat.sort()
            res["p50_ms"] = lat[len(lat) // 2]
            res["p99_ms"] = lat[int(len(lat) * 0.99) - 1]

            urls = [server.url(f"/page?title=leak{i}") for i in range(200)]
            next_id = 1_000_000
            errors = fetch_many(d, urls, 1000, next_id)
            time.sleep(0.5)
            res["rss_1k"] = d.rss_mb()
            errors += fetch_many(d, urls, 9000, next_id + 1000)
            time.sleep(0.5)
            res["rss_10k"] = d.rss_mb()
            res["fetch_errors"] = errors
        finally:
            d.close()
    return res


def release_binary() -> str | None:
    """`$LINKPEEK_BIN`, else the release build; None (after saying why on
    stderr) when it is not an executable file. Every benchmark starts here."""
    binary = os.environ.get("LINKPEEK_BIN") or str(REPO / ".build" / "release" / "linkpeek")
    if not os.access(binary, os.X_OK):
        print(f"no linkpeek binary at {binary}; build it (swift build -c release) or set LINKPEEK_BIN", file=sys.stderr)
        return None
    return binary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pipelined", type=int, default=50_000)
    ap.add_argument("--latency", type=int, default=5_000)
    args = ap.parse_args()
    binary = release_binary()
    if binary is None:
        return 2

    server = FixtureServer().start()
    rounds = []
    try:
        for r in range(args.rounds):
            rounds.append(one_round(binary, server, args.pipelined, args.latency))
            print(f"round {r + 1}: " + ", ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                                                 for k, v in rounds[-1].items()), flush=True)
    finally:
        server.stop()

    med = lambda k: statistics.median(x[k] for x in rounds)  # noqa: E731
    growth = statistics.median(x["rss_10k"] - x["rss_1k"] for x in rounds)
    rows = [
        ("spawn → initialize answered", f"{med('init_ms'):.1f} ms", "< 50 ms", med("init_ms") < 50),
        ("idle RSS", f"{med('idle_rss'):.1f} MB", "< 20 MB", med("idle_rss") < 20),
        ("getCached pipelined", f"{med('hits_per_s'):,.0f} /s", "≥ 20,000 /s", med("hits_per_s") >= 20000),
        ("getCached p50, 1 outstanding", f"{med('p50_ms'):.3f} ms", "", True),
        ("getCached p99, 1 outstanding", f"{med('p99_ms'):.3f} ms", "< 1 ms", med("p99_ms") < 1),
        ("RSS after 1,000 fetches", f"{med('rss_1k'):.1f} MB", "", True),
        ("RSS after 10,000 fetches", f"{med('rss_10k'):.1f} MB", "", True),
        ("growth 1k → 10k", f"{growth:.1f} MB", "< 10 MB", growth < 10),
        ("fetch errors", f"{max(x['fetch_errors'] for x in rounds)}", "0", max(x["fetch_errors"] for x in rounds) == 0),
    ]
    w0, w1, w2 = (max(len(r[i]) for r in rows) for i in range(3))
    print(f"\n{'measure':{w0}}  {'median':>{w1}}  {'target':{w2}}  ok")
    for name, value, target, ok in rows:
        print(f"{name:{w0}}  {value:>{w1}}  {target:{w2}}  {'yes' if ok else 'NO'}")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
