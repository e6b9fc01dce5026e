"""Deterministic benchmark pages, served by the integration tests' fixture server.

~500 pages: heads of 5–30 KB (meta, link, style and script like real sites),
bodies from 20 KB to 3 MB (log-uniform). Most heads carry title, description
and og:image (linkpeek can stop at </head>); about one in five lacks them,
so linkpeek scans up to 64 KiB of body for late metadata.

Bodies are streamed from one shared text block, so 500 pages cost a few MB
of memory, not 700.

    python3 Benchmarks/gen_pages.py            # serve them and print the URL list (Ctrl-C to stop)
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "integration"))

from fixture_server import FixtureServer  # noqa: E402

WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et "
         "dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea "
         "commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum eu fugiat nulla").split()


@dataclass
class Page:
    path: str
    head: bytes          # everything up to and including </head>
    body_len: int        # bytes after the head
    body_offset: int     # where in the shared block this page's body starts
    has_main_fields: bool

    @property
    def size(self) -> int:
        return len(self.head) + self.body_len


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def _head(rng: random.Random, i: int, target: int, main: bool) -> bytes:
    title = f"Benchmark page {i}: {_text(rng, 5)}"
    parts = ['<!DOCTYPE html>\n<html lang="en"><head>\n<meta charset="utf-8">\n',
             '<meta name="viewport" content="width=device-width, initial-scale=1">\n']
    main_tags = [f"<title>{title}</title>\n",
                 f'<meta name="description" content="{_text(rng, 25)}">\n',
                 f'<meta property="og:title" content="{title}">\n',
                 f'<meta property="og:image" content="/bench-img/{i}.png">\n']
    if not main:
        main_tags = [f'<meta name="keywords" content="{_text(rng, 8)}">\n']
    filler = []
    size = sum(map(len, parts + main_tags))
    while size < target - 20:
        kind = rng.random()
        if kind < 0.4:
            s = f'<meta name="x-{rng.randrange(10 ** 6)}" content="{_text(rng, rng.randrange(5, 30))}">\n'
        elif kind < 0.6:
            s = f'<link rel="preload" href="/static/{rng.randrange(10 ** 9):x}.js" as="script">\n'
        elif kind < 0.8:
            s = "<style>" + "".join(f".c{rng.randrange(10 ** 5)}{{margin:{rng.randrange(40)}px}}"
                                    for _ in range(rng.randrange(10, 60))) + "</style>\n"
        else:
            s = "<script>var d" + str(rng.randrange(10 ** 6)) + "=" + repr(_text(rng, rng.randrange(10, 80))) + ";</script>\n"
        filler.append(s)
        size += len(s)
    # main fields somewhere in the head, as on real sites
    pos = rng.randrange(len(filler) + 1)
    body = "".join(parts + filler[:pos] + main_tags + filler[pos:]) + "</head>\n"
    return body.encode()


BLOCK_LEN = 4 * 1024 * 1024


def shared_block(seed: int = 7) -> bytes:
    rng = random.Random(seed)
    out, size = [], 0
    while size < BLOCK_LEN:
        p = f"<p>{_text(rng, rng.randrange(20, 120))}</p>\n"
        out.append(p)
        size += len(p)
    return "".join(out).encode()[:BLOCK_LEN]


def generate(n: int = 500, seed: int = 1234) -> list[Page]:
    rng = random.Random(seed)
    pages = []
    for i in range(n):
        head_target = rng.randrange(5 * 1024, 30 * 1024)
        body_len = int(math.exp(rng.uniform(math.log(20 * 1024), math.log(3 * 1024 * 1024))))
        main = rng.random() >= 0.2
        head = _head(rng, i, head_target, main)
        pages.append(Page(f"/bench/{i}.html", head, body_len, rng.randrange(BLOCK_LEN), main))
    return pages


def page_chunks(page: Page, block: bytes):
    """The page's bytes in pieces of at most 64 KiB: its head, then its body
    taken from the shared block (wrapping around at the end)."""
    yield page.head
    left, off = page.body_len, page.body_offset
    while left > 0:
        n = min(left, 65536, BLOCK_LEN - off)
        yield block[off:off + n]
        left -= n
        off = (off + n) % BLOCK_LEN


def install(server: FixtureServer, pages: list[Page]) -> None:
    """Serve every page at its path on `server` (plus a small PNG for og:image)."""
    from fixture_server import png_bytes
    by_path = {p.path: p for p in pages}
    block = shared_block()
    png = png_bytes(64, 32)

    def serve_page(h, path, q):
        page = by_path.get(path)
        if page is None:
            return h.send(404, b"no such page")

        h.stream(page_chunks(page, block), page.size)

    server.add_prefix_route("/bench/", serve_page)
    server.add_prefix_route("/bench-img/", lambda h, path, q: h.send(200, png, "image/png"))


if __name__ == "__main__":
    pages = generate()
    s = FixtureServer().start()
    install(s, pages)
    for p in pages:
        print(s.url(p.path))
    print(f"# {len(pages)} pages, {sum(p.size for p in pages) / 1e6:.0f} MB in all; serving at {s.base_url}",
          file=sys.stderr)
    try:
        import time
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        s.stop()
