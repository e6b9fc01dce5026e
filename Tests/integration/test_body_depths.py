"""The network path finds the byline and date that `linkpeek parse` finds, wherever they sit.

Articles (`og:type` article) whose head declares the main fields but no author and no date, and
whose article byline and `<time>` come after N KiB of body (navigation,
cards, a script state blob that mentions an author id: a false sign the
byte search stops at). `linkpeek fetch` (early stop, body budget, search
past it) must give the author and date `linkpeek parse` gives for the same
bytes, served whole or gzip-encoded, up to the search's reach (1 MiB of
body); past it the fetch stops without them, and so does a page that is no
article past 128 KiB of body, as documented (protocol/README.md, "How much
of a page is read").
"""
import gzip
import random

import pytest

DATE = "2021-03-09T08:15:00+01:00"
# KiB of body before the byline: near the top, within the 64 KiB budget,
# just past it, and further down where real pages put them (the open
# corpus: 44, 83, 255 and 688 KiB).
DEPTHS = [1, 40, 100, 260, 700]
# Past the search's reach (1 MiB of body): not read.
BEYOND = 1200

WORDS = ("harbour tram council line depot station vote plan city river bridge market street square park "
         "school museum library hall tower gate road lane court").split()


def filler(kib: int, seed: int) -> str:
    """About `kib` KiB of body markup with no byline, date or player in it."""
    rng = random.Random(seed)
    parts = ['<script>window.__state={"story":{"authorId":12,"section":"city"}};</script>\n']
    size = len(parts[0])
    while size < kib * 1024:
        kind = rng.random()
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(6, 30)))
        if kind < 0.4:
            piece = f'<div class="card c{rng.randrange(99)}"><a href="/{rng.choice(WORDS)}/{rng.randrange(10 ** 6)}">' \
                    f'<h3>{words}</h3></a><span class="kicker">{rng.choice(WORDS)}</span></div>\n'
        elif kind < 0.7:
            piece = '<ul class="menu">' + "".join(f'<li><a href="/{w}">{w}</a></li>' for w in words.split()) + "</ul>\n"
        else:
            piece = f'<section class="teaser"><p>{words} {words}</p></section>\n'
        parts.append(piece)
        size += len(piece)
    return "".join(parts)


def page(depth_kib: int, article: bool = True) -> bytes:
    kind = '<meta property="og:type" content="article">' if article else ""
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Tram line to the harbour</title>{kind}
<meta property="og:title" content="Tram line to the harbour">
<meta property="og:description" content="The council voted to extend the tram line.">
<meta property="og:image" content="/img/tram.jpg">
</head><body><nav class="top">Home · City · Sport</nav>
{filler(depth_kib, depth_kib)}
<main><article><h1>Tram line to the harbour</h1>
<div class="meta"><span class="byline">By Ann Lee</span> <time datetime="{DATE}">9 March 2021</time></div>
<p>The council voted on Tuesday to extend the tram line to the harbour.</p></article></main>
{filler(40, 7)}
</body></html>""".encode()


def serve(body: bytes, encoded: bool):
    def handler(h, path, q):
        if encoded:
            h.send(200, gzip.compress(body, 6), headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        else:
            h.send(200, body)
    return handler


def parsed(run_cli, tmp_path, url: str, body: bytes) -> dict:
    path = tmp_path / "page.html"
    path.write_bytes(body)
    res = run_cli("parse", "--url", url, str(path))
    assert res.returncode == 0, res.describe()
    return res.one


@pytest.mark.parametrize("encoded", [False, True], ids=["plain", "gzip"])
def test_fetch_finds_the_byline_and_date_parse_finds_at_every_depth(server, fetch, run_cli, tmp_path, encoded):
    for depth in DEPTHS:
        body = page(depth)
        route = f"/body-depths/{depth}/{int(encoded)}"
        server.add_route(route, serve(body, encoded))
        url = server.url(route)
        want = parsed(run_cli, tmp_path, url, body)
        assert want.get("author") == "Ann Lee" and want.get("publishedTime") == DATE, want
        res = fetch("--no-subresources", "--cache-policy", "reload", url)
        assert res.returncode == 0, res.describe()
        got = res.one
        assert (depth, got.get("author"), got.get("publishedTime")) == (depth, "Ann Lee", DATE), res.describe()
        assert got["sources"]["author"] == want["sources"]["author"] == "byline"


def fetched_beyond_reach(server, fetch, run_cli, tmp_path, route: str, body: bytes):
    """The fetch of a page whose byline parse finds (checked here) but the fetch does not reach."""
    server.add_route(route, serve(body, False))
    url = server.url(route)
    assert parsed(run_cli, tmp_path, url, body).get("author") == "Ann Lee"
    res = fetch("--no-subresources", "--cache-policy", "reload", url)
    assert res.returncode == 0, res.describe()
    return res.one, res


def test_past_the_search_the_fetch_stops_without_them(server, fetch, run_cli, tmp_path):
    body = page(BEYOND)
    got, res = fetched_beyond_reach(server, fetch, run_cli, tmp_path, "/body-depths/beyond", body)
    assert got.get("author") is None and got.get("publishedTime") is None, res.describe()
    # The fetch stopped: it read the head and about the search's reach of body, not the page.
    assert got["bytesRead"] < len(body) - 64 * 1024, res.describe()


def test_a_page_that_is_no_article_is_searched_to_128_kib(server, fetch, run_cli, tmp_path):
    body = page(260, article=False)
    got, res = fetched_beyond_reach(server, fetch, run_cli, tmp_path, "/body-depths/no-article", body)
    assert got.get("author") is None, res.describe()
    # head (~400 bytes) + 128 KiB searched + 8 KiB after a sign + a transfer block of slack
    assert got["bytesRead"] <= 136 * 1024 + 32 * 1024 + 1024, res.describe()
