"""Deterministic benchmark pages, served by the integration tests' fixture server.

~500 pages: heads like news and shop pages (50–150 metas and links, one to
three JSON-LD blocks of 2–8 KB, inline scripts and styles), bodies from 20 KB
to 3 MB (log-uniform) of body markup. Most heads carry title, description,
og:title and og:image (linkpeek can stop at </head>); about one in five lacks
them, so linkpeek scans up to 64 KiB of body for late metadata.

Bodies are streamed from one shared text block, so 500 pages cost a few MB
of memory, not 700.

    python3 Benchmarks/gen_pages.py            # serve them and print the URL list (Ctrl-C to stop)
"""

from __future__ import annotations

import json
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


@dataclass(frozen=True)
class Shape:
    """The ranges a page set is drawn from."""
    tags: tuple[int, int]        # metas and links in the head
    codes: tuple[int, int]       # inline scripts and styles in the head
    json_ld: tuple[int, int]     # JSON-LD blocks in the head
    json_ld_bytes: tuple[int, int]
    body: tuple[int, int]        # body bytes, log-uniform
    plain: float                 # the share of pages served without gzip


# "web": heads like news and shop pages, bodies of 20 KB to 3 MB (median
# head 29 KB, page 300 KB), every page gzip-encoded. "issue": the set the
# fourth engine issue measured its floor on: median page ~100 KB, head
# ~18 KB, half of the pages served gzip-encoded.
SHAPES = {
    "web": Shape((50, 150), (2, 12), (1, 4), (2048, 8192), (20 * 1024, 3 * 1024 * 1024), 0.0),
    "issue": Shape((30, 100), (1, 8), (1, 3), (1536, 6144), (20 * 1024, 360 * 1024), 0.5),
}


@dataclass
class Page:
    path: str
    head: bytes          # everything up to and including </head>
    body_len: int        # bytes after the head
    body_offset: int     # where in the shared block this page's body starts
    has_main_fields: bool
    gzip: bool = True    # served gzip-encoded when the server does gzip (nginx); else as it is


    @property
    def size(self) -> int:
        return len(self.head) + self.body_len


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def _slug(rng: random.Random) -> str:
    return "-".join(rng.choice(WORDS) for _ in range(rng.randrange(3, 7)))


def _json_ld(rng: random.Random, i: int, title: str, target: int) -> str:
    """A schema.org graph of about `target` bytes, as news and shop pages
    carry: the article or product, its publisher, breadcrumbs, and lists
    (offers, related items) that make up most of the size."""
    graph = [
        {"@type": "NewsArticle", "@id": f"https://bench.example/{i}#article", "headline": title,
         "description": _text(rng, 30), "datePublished": "2026-11-20T08:00:00Z",
         "author": [{"@type": "Person", "name": f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}",
                     "url": f"https://bench.example/authors/{_slug(rng)}"}],
         "image": [f"https://cdn.bench.example/{i}/{w}x{h}.jpg" for w, h in ((1200, 675), (800, 600), (400, 400))],
         "publisher": {"@type": "Organization", "name": "Bench Daily",
                       "logo": {"@type": "ImageObject", "url": "https://cdn.bench.example/logo.png"}}},
        {"@type": "BreadcrumbList", "itemListElement": [
            {"@type": "ListItem", "position": n + 1, "name": rng.choice(WORDS).title(),
             "item": f"https://bench.example/{_slug(rng)}"} for n in range(4)]},
    ]
    items = []
    size = len(json.dumps(graph))
    while size < target:
        item = {"@type": "Offer" if rng.random() < 0.5 else "ListItem", "name": _text(rng, rng.randrange(3, 9)),
                "url": f"https://bench.example/p/{_slug(rng)}", "price": f"{rng.randrange(1, 500)}.99",
                "priceCurrency": "EUR", "description": _text(rng, rng.randrange(5, 25))}
        items.append(item)
        size += len(json.dumps(item)) + 2
    graph.append({"@type": "ItemList", "itemListElement": items})
    return json.dumps({"@context": "https://schema.org", "@graph": graph}, indent=1)


def _tag(rng: random.Random, i: int) -> str:
    """One of the head's many metas and links."""
    kind = rng.random()
    if kind < 0.18:
        return f'<meta property="article:tag" content="{_text(rng, rng.randrange(1, 4))}">\n'
    if kind < 0.30:
        key = rng.choice(("fb:app_id", "fb:pages", "al:ios:app_store_id", "al:android:package", "al:ios:url"))
        return f'<meta property="{key}" content="{rng.randrange(10 ** 12)}">\n'
    if kind < 0.42:
        key = rng.choice(("google-site-verification", "msvalidate.01", "apple-itunes-app", "format-detection",
                          "referrer", "robots", "theme-color", "msapplication-TileColor", "parsely-tags",
                          "sailthru.tags", "news_keywords"))
        return f'<meta name="{key}" content="{_text(rng, rng.randrange(1, 12))}">\n'
    if kind < 0.50:
        return f'<meta name="x-{rng.randrange(10 ** 6)}" content="{_text(rng, rng.randrange(5, 30))}">\n'
    if kind < 0.68:
        return (f'<link rel="preload" href="https://cdn.bench.example/static/{rng.randrange(16 ** 10):x}.js" '
                f'as="script" crossorigin="anonymous">\n')
    if kind < 0.76:
        return f'<link rel="dns-prefetch" href="//{rng.choice(WORDS)}{rng.randrange(99)}.bench.example">\n'
    if kind < 0.86:
        return (f'<link rel="stylesheet" href="https://cdn.bench.example/css/{rng.randrange(16 ** 10):x}.css" '
                f'media="all">\n')
    if kind < 0.94:
        lang = rng.choice(("de", "fr", "es", "it", "nl", "pt", "ja", "ko", "zh-Hans", "ru"))
        return f'<link rel="alternate" hreflang="{lang}" href="https://{lang}.bench.example/{i}/{_slug(rng)}">\n'
    size = rng.choice((16, 32, 57, 72, 114, 120, 144, 152, 180, 192))
    return f'<link rel="icon" sizes="{size}x{size}" href="/icons/{size}.png">\n'


def _code(rng: random.Random) -> str:
    """An inline script or style, as pages put in their heads."""
    if rng.random() < 0.5:
        return "<style>" + "".join(f".c{rng.randrange(10 ** 5)}{{margin:{rng.randrange(40)}px;color:#{rng.randrange(4096):03x}}}"
                                   for _ in range(rng.randrange(20, 120))) + "</style>\n"
    return ("<script>window.d" + str(rng.randrange(10 ** 6)) + "=" +
            json.dumps({w: _text(rng, 6) for w in rng.sample(WORDS, 8)}) +
            ";if(window.d&&d.length<3){document.write('<div>'+d+'</div>')}</script>\n")


def _head(rng: random.Random, i: int, main: bool, shape: Shape = SHAPES["web"]) -> bytes:
    """A head shaped like a news or shop page's (the open corpus's heads were
    the guide, none is copied): 50–150 metas and links (Open Graph, Twitter,
    article tags, verification keys, preloads, alternates, icons), one to
    three JSON-LD blocks of 2–8 KB, inline scripts and styles."""
    title = f"Benchmark page {i}: {_text(rng, 5)}"
    parts = ['<!DOCTYPE html>\n<html lang="en"><head>\n<meta charset="utf-8">\n',
             '<meta name="viewport" content="width=device-width, initial-scale=1">\n']
    url = f"https://bench.example/{i}/{_slug(rng)}"
    if main:
        main_tags = [f"<title>{title} | Bench Daily</title>\n",
                     f'<meta name="description" content="{_text(rng, 25)}">\n',
                     f'<meta property="og:title" content="{title}">\n',
                     f'<meta property="og:description" content="{_text(rng, 25)}">\n',
                     f'<meta property="og:image" content="/bench-img/{i}.png">\n',
                     '<meta property="og:image:width" content="1200">\n',
                     '<meta property="og:image:height" content="675">\n',
                     '<meta property="og:site_name" content="Bench Daily">\n',
                     '<meta property="og:type" content="article">\n',
                     f'<meta property="og:url" content="{url}">\n',
                     '<meta name="twitter:card" content="summary_large_image">\n',
                     f'<meta name="twitter:title" content="{title}">\n',
                     '<meta name="twitter:site" content="@benchdaily">\n',
                     f'<link rel="canonical" href="{url}">\n']
    else:
        main_tags = [f'<meta name="keywords" content="{_text(rng, 8)}">\n']
    filler = [_tag(rng, i) for _ in range(rng.randrange(*shape.tags) - len(main_tags))]
    filler += [_code(rng) for _ in range(rng.randrange(*shape.codes))]
    filler += ['<script type="application/ld+json">' + _json_ld(rng, i, title, rng.randrange(*shape.json_ld_bytes))
               + "</script>\n" for _ in range(rng.randrange(*shape.json_ld))]
    rng.shuffle(filler)
    # main fields somewhere in the head, as on real sites
    pos = rng.randrange(len(filler) + 1)
    return ("".join(parts + filler[:pos] + main_tags + filler[pos:]) + "</head>\n").encode()


BLOCK_LEN = 4 * 1024 * 1024


def _block_piece(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.45:
        return f"<p>{_text(rng, rng.randrange(20, 120))}</p>\n"
    if kind < 0.65:
        return ('<div class="card"><a class="card__link" href="/' + _slug(rng) + '"><img src="https://cdn.bench.example/'
                + f'{rng.randrange(16 ** 8):x}.jpg" alt="{_text(rng, 4)}" loading="lazy" width="320" height="180">'
                + f"<h3>{_text(rng, rng.randrange(4, 10))}</h3></a></div>\n")
    if kind < 0.80:
        return ('<ul class="nav">' + "".join(f'<li><a href="/{_slug(rng)}">{rng.choice(WORDS)}</a></li>'
                                             for _ in range(rng.randrange(3, 12))) + "</ul>\n")
    if kind < 0.90:
        return f'<section class="s{rng.randrange(100)}"><h2>{_text(rng, 6)}</h2><span class="meta">{_text(rng, 8)}</span></section>\n'
    return f'<div class="ad" data-slot="{rng.randrange(10 ** 6)}" style="min-height:250px"></div>\n'


def shared_block(seed: int = 7) -> bytes:
    """The text bodies are cut from: markup like a page's body (paragraphs,
    cards with images and links, navigation lists, ad slots)."""
    rng = random.Random(seed)
    out, size = [], 0
    while size < BLOCK_LEN:
        p = _block_piece(rng)
        out.append(p)
        size += len(p)
    return "".join(out).encode()[:BLOCK_LEN]


def generate(n: int = 500, seed: int = 1234, shape: str = "web") -> list[Page]:
    """`n` pages of the named shape (`SHAPES`). Pages served without gzip
    live under /plain/, where the server is told not to compress."""
    rng = random.Random(seed)
    ranges = SHAPES[shape]
    pages = []
    for i in range(n):
        body_len = int(math.exp(rng.uniform(math.log(ranges.body[0]), math.log(ranges.body[1]))))
        main = rng.random() >= 0.2
        head = _head(rng, i, main, ranges)
        gzip = ranges.plain == 0 or rng.random() >= ranges.plain
        path = f"/bench/{i}.html" if gzip else f"/plain/bench/{i}.html"
        pages.append(Page(path, head, body_len, rng.randrange(BLOCK_LEN), main, gzip))
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
    server.add_prefix_route("/plain/bench/", serve_page)
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
