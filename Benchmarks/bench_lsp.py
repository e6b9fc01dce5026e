"""linkpeek serve as a language server, over real pipes (LSP framing):

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_lsp.py [--rounds 3]

Per round, a fresh daemon (`serve --cache-dir <temp> --allow-private-network`):
  - hover on a URL whose preview is cached, one request outstanding, p50/p99   (target p99 < 2 ms)
  - the same on a cached site link (a GitHub pull request from the site engines' tape)   (target p99 < 2 ms)
  - textDocument/documentLink on a 1 MB Markdown file with 10,000 links:
    time from writing the request to the whole answer read, median and max    (target < 50 ms)
  - didChange of one character in that file:
      * 10,000 one-character edits pipelined, then one request: time per edit (target < 1 ms)
      * one edit then a cheap request (hover on plain text), one outstanding,
        p50, minus the same request alone                                     (target < 1 ms)
      * for scale: one full-text didChange of the same file (a full rescan)
Medians over rounds, printed as a table. It builds nothing. The Markdown file
is generated (seeded; the seed is printed) and never touches the network:
its links point at a loopback fixture server, and only one is fetched.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_daemon import HEADER, REPO, FixtureServer, RawDaemon, release_binary  # noqa: E402

URI = "file:///bench/links.md"


def make_markdown(base: str, links: int, seed: int) -> tuple[str, int]:
    """About 1 MB of Markdown with `links` links in four forms (list items, autolinks, bare URLs,
    reference definitions), and the number of a plain-text line (for the cheap request and the edits)."""
    rng = random.Random(seed)
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi".split()
    lines = ["# Benchmark notes", "", "Plain text here, with no link at all, for the cheap request.", ""]
    forms = [
        lambda u, t: f"- [{t}]({u}) {t} {t}",
        lambda u, t: f"See <{u}> for {t}.",
        lambda u, t: f"{t} {u} and more {t}",
        lambda u, t: f"[{t}]: {u} \"{t}\"",
    ]
    for i in range(links):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(3, 9)))
        url = f"{base}/page?title=link{i}&n={rng.randint(0, 10**6)}"
        lines.append(forms[i % len(forms)](url, text))
    return "\n".join(lines) + "\n", 2


def read_frame_bytes(d: RawDaemon, timeout: float = 30) -> bytes:
    """The body of the next whole frame, without decoding it."""
    import select
    deadline = time.perf_counter() + timeout
    while True:
        m = HEADER.match(d.buf)
        if m and len(d.buf) >= m.end() + int(m.group(1)):
            end = m.end() + int(m.group(1))
            body = bytes(d.buf[m.end():end])
            del d.buf[:end]
            return body
        left = deadline - time.perf_counter()
        if left <= 0:
            raise TimeoutError("no frame")
        r, _, _ = select.select([d.fd], [], [], left)
        if r:
            chunk = os.read(d.fd, 1 << 20)
            if not chunk:
                raise EOFError("daemon closed its output")
            d.buf += chunk


def timed_call(d: RawDaemon, msg: dict) -> tuple[float, bytes]:
    frame = d.frame(msg)
    t0 = time.perf_counter()
    d.write(frame)
    body = read_frame_bytes(d)
    return (time.perf_counter() - t0) * 1000, body


def pct(values: list, q: float) -> float:
    values = sorted(values)
    return values[max(0, int(len(values) * q) - 1)]


def one_round(binary: str, server: FixtureServer, doc: str, plain_line: int, hovers: int, keystrokes: int) -> dict:
    import json
    res: dict = {}
    with tempfile.TemporaryDirectory() as cache:
        d = RawDaemon(binary, cache)
        try:
            # The site engines' tape (protocol/examples) serves the one site link's API answer; the rest is live.
            tape = str(REPO / "protocol" / "examples" / "tapes" / "sites")
            init = d.call({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "capabilities": {}, "initializationOptions": {"replay": tape, "replayFallback": True}}})
            assert init["result"]["capabilities"]["hoverProvider"], init
            d.write(d.frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))

            # 1. Hover on a cached URL.
            url = server.url("/page?title=bench-hover")
            assert "result" in d.call({"jsonrpc": "2.0", "id": 1, "method": "fetch", "params": {"url": url}})
            d.write(d.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file:///bench/hover.md", "languageId": "markdown", "version": 1, "text": f"see {url}\n"}}}))
            hover = {"jsonrpc": "2.0", "method": "textDocument/hover",
                     "params": {"textDocument": {"uri": "file:///bench/hover.md"}, "position": {"line": 0, "character": 6}}}
            lat = []
            for i in range(hovers):
                ms, body = timed_call(d, {**hover, "id": 100 + i})
                lat.append(ms)
            assert b"bench-hover" in body, body[:300]
            res["hover_p50"], res["hover_p99"] = pct(lat, 0.5), pct(lat, 0.99)

            # 1b. Hover on a cached site link (a GitHub pull request read from its API; the card has its status line).
            site = "https://github.com/o/r/pull/4123"
            assert "site" in d.call({"jsonrpc": "2.0", "id": 2, "method": "fetch", "params": {"url": site}})["result"]
            d.write(d.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file:///bench/site.md", "languageId": "markdown", "version": 1, "text": f"see {site}\n"}}}))
            site_hover = {"jsonrpc": "2.0", "method": "textDocument/hover",
                          "params": {"textDocument": {"uri": "file:///bench/site.md"}, "position": {"line": 0, "character": 6}}}
            lat = []
            for i in range(hovers):
                ms, body = timed_call(d, {**site_hover, "id": 5_000_000 + i})
                lat.append(ms)
            assert "merged · #4123".encode() in body, body[:300]
            res["site_hover_p50"], res["site_hover_p99"] = pct(lat, 0.5), pct(lat, 0.99)

            # 2. documentLink on the 1 MB file.
            d.write(d.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": URI, "languageId": "markdown", "version": 1, "text": doc}}}))
            links_req = {"jsonrpc": "2.0", "method": "textDocument/documentLink", "params": {"textDocument": {"uri": URI}}}
            times = []
            for i in range(20):
                ms, body = timed_call(d, {**links_req, "id": 10_000 + i})
                times.append(ms)
            links = json.loads(body)["result"]
            res["links"] = len(links)
            res["doclink_med"], res["doclink_max"] = statistics.median(times), max(times)

            # 3a. 10,000 one-character edits pipelined, then one request.
            line = plain_line
            edits = []
            for i in range(keystrokes):
                edits.append(d.frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": URI, "version": 2 + i},
                    "contentChanges": [{"range": {"start": {"line": line, "character": 10 + i},
                                                  "end": {"line": line, "character": 10 + i}}, "text": "x"}]}}))
            probe = {"jsonrpc": "2.0", "method": "textDocument/hover",
                     "params": {"textDocument": {"uri": URI}, "position": {"line": line, "character": 1}}}
            base = []
            for i in range(200):
                ms, _ = timed_call(d, {**probe, "id": 20_000 + i})
                base.append(ms)
            blob = b"".join(edits)
            t0 = time.perf_counter()
            d.write(blob + d.frame({**probe, "id": 30_000}))
            read_frame_bytes(d, 120)
            total = (time.perf_counter() - t0) * 1000
            res["edit_pipelined"] = (total - statistics.median(base)) / keystrokes

            # 3b. One edit then the probe, one outstanding, against the probe alone.
            pair = []
            for i in range(1000):
                edit = d.frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": URI, "version": 50_000 + i},
                    "contentChanges": [{"range": {"start": {"line": line, "character": 5},
                                                  "end": {"line": line, "character": 5}}, "text": "y"}]}})
                t0 = time.perf_counter()
                d.write(edit + d.frame({**probe, "id": 40_000 + i}))
                read_frame_bytes(d)
                pair.append((time.perf_counter() - t0) * 1000)
            res["edit_pair_p50"] = statistics.median(pair)
            res["probe_p50"] = statistics.median(base)
            # Still 10,000 links, and the edited line's count did not change.
            ms, body = timed_call(d, {**links_req, "id": 60_000})
            assert len(json.loads(body)["result"]) == res["links"]

            # 3c. For scale: a full-text change (what a rescan per keystroke would cost).
            full = d.frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": URI, "version": 90_000}, "contentChanges": [{"text": doc}]}})
            t0 = time.perf_counter()
            d.write(full + d.frame({**probe, "id": 70_000}))
            read_frame_bytes(d)
            res["full_change"] = (time.perf_counter() - t0) * 1000 - statistics.median(base)
        finally:
            d.close()
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hovers", type=int, default=5000)
    ap.add_argument("--keystrokes", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()
    binary = release_binary()
    if binary is None:
        return 2
    print(f"seed {args.seed}")

    server = FixtureServer().start()
    rounds = []
    try:
        doc, plain_line = make_markdown(server.base_url, 10_000, args.seed)
        print(f"document: {len(doc.encode()):,} bytes, {doc.count(chr(10)):,} lines")
        for r in range(args.rounds):
            rounds.append(one_round(binary, server, doc, plain_line, args.hovers, args.keystrokes))
            print(f"round {r + 1}: " + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                                 for k, v in rounds[-1].items()), flush=True)
    finally:
        server.stop()

    med = lambda k: statistics.median(x[k] for x in rounds)  # noqa: E731
    rows = [
        ("hover, cached URL, p50", f"{med('hover_p50'):.3f} ms", "", True),
        ("hover, cached URL, p99", f"{med('hover_p99'):.3f} ms", "< 2 ms", med("hover_p99") < 2),
        ("hover, cached site link, p50", f"{med('site_hover_p50'):.3f} ms", "", True),
        ("hover, cached site link, p99", f"{med('site_hover_p99'):.3f} ms", "< 2 ms", med("site_hover_p99") < 2),
        ("documentLink, 1 MB / 10,000 links, median", f"{med('doclink_med'):.1f} ms", "< 50 ms", med("doclink_med") < 50),
        ("documentLink, max of 20", f"{med('doclink_max'):.1f} ms", "", True),
        ("links found", f"{min(x['links'] for x in rounds):,}", "10,000", min(x["links"] for x in rounds) == 10_000),
        ("didChange 1 char, pipelined, per edit", f"{med('edit_pipelined'):.4f} ms", "< 1 ms", med("edit_pipelined") < 1),
        ("didChange 1 char + probe, p50", f"{med('edit_pair_p50'):.3f} ms", "", True),
        ("probe alone, p50", f"{med('probe_p50'):.3f} ms", "", True),
        ("  difference (one edit)", f"{med('edit_pair_p50') - med('probe_p50'):.3f} ms", "< 1 ms",
         med("edit_pair_p50") - med("probe_p50") < 1),
        ("full-text didChange (a rescan), for scale", f"{med('full_change'):.1f} ms", "", True),
    ]
    w0, w1, w2 = (max(len(r[i]) for r in rows) for i in range(3))
    print(f"\n{'measure':{w0}}  {'median':>{w1}}  {'target':{w2}}  ok")
    for name, value, target, ok in rows:
        print(f"{name:{w0}}  {value:>{w1}}  {target:{w2}}  {'yes' if ok else 'NO'}")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
