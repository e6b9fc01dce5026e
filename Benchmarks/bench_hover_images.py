"""What the hover card's image costs: the card embeds a thumbnail
linkpeek makes itself (a data: URI), never the page's image URL.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_hover_images.py [--rounds 5]

Per round, side by side, two fresh daemons (`serve --cache-dir <temp>
--allow-private-network`), one with `hoverImages: true`, one with `false`,
against a loopback fixture server whose page names a 1200x630 PNG
`og:image`:
  - first hover: from the request to the full card (hovered again until it
    no longer says loading; hoverTimeout 10 s so one wait normally suffices)
  - cached hover: p50 of 50 hovers of the same URL afterwards
  - the card's size, and the thumbnail's bytes (decoded)
Medians over rounds, printed as a table. It builds nothing and never leaves
127.0.0.1.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "integration"))
sys.path.insert(0, str(REPO / "protocol" / "python"))
from fixture_server import FixtureServer, page_html  # noqa: E402
from linkpeek_client import LinkPeekClient  # noqa: E402

URI = "file:///bench/notes.md"
DATA = re.compile(r"data:image/jpeg;base64,([A-Za-z0-9+/]+=*)")


def one(binary: str, url: str, images: bool) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        with LinkPeekClient(binary, args=["--cache-dir", cache, "--allow-private-network"],
                            init_options={"hoverImages": images, "hoverTimeout": 10}, timeout=30) as c:
            c.did_open(URI, f"see {url}\n")
            t0 = time.perf_counter()
            for _ in range(20):
                value = c.hover(URI, 0, 6)["contents"]["value"]
                if "loading" not in value:
                    break
            first = time.perf_counter() - t0
            cached = []
            for _ in range(50):
                t = time.perf_counter()
                c.hover(URI, 0, 6)
                cached.append(time.perf_counter() - t)
            match = DATA.search(value)
            return {"first": first, "cached": statistics.median(cached), "card": len(value.encode()),
                    "thumb": len(base64.b64decode(match.group(1))) if match else 0}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    binary = os.environ.get("LINKPEEK_BIN", str(REPO / ".build" / "release" / "linkpeek"))
    server = FixtureServer().start()
    server.add_route("/bench-card", lambda h, p, q: h.send(200, page_html(h.base, q("title", "Bench")).replace(
        "w=120&amp;h=63", "w=1200&amp;h=630").replace('content="120"', 'content="1200"').replace(
        'content="63"', 'content="630"').encode()))
    try:
        runs = {True: [], False: []}
        for r in range(args.rounds):
            url = server.url(f"/bench-card?title=Bench%20{r}")  # a fresh URL per round: nothing cached
            for images in (True, False):
                runs[images].append(one(binary, url, images))
    finally:
        server.stop()
    print(f"binary: {binary}, rounds: {args.rounds}")
    print("| hoverImages | first full card (median) | cached hover p50 (median) | card bytes | thumbnail bytes |")
    print("| --- | --- | --- | --- | --- |")
    for images in (True, False):
        rows = runs[images]
        med = lambda key: statistics.median(row[key] for row in rows)  # noqa: E731
        print(f"| {str(images).lower()} | {med('first') * 1000:.1f} ms | {med('cached') * 1000:.2f} ms "
              f"| {med('card'):.0f} | {med('thumb'):.0f} |")


if __name__ == "__main__":
    main()
