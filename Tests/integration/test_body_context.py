"""Bylines, dates and summaries by where they sit on the page, over the network.

`linkpeek fetch` against the fixture server: a page whose navigation and
related-articles list (in `<aside>`, about 20 KiB of other people's names,
dates and paragraphs) come before the article, and whose footer carries a
`<time>` of its own. The article's byline, date and first paragraph must win,
read through the fetch's early stop and read budget (the head declares the
main fields, so the body is held until it shows a sign of a byline or date).
"""

import pytest

ARTICLE_DATE = "2024-05-03T10:00:00+02:00"
PROSE = "The council voted on Tuesday to extend the tram line to the harbour, a plan first proposed in 1998."
NAV = "Home, World, Politics, Business, Technology, Science, Health, Sports, Style, Travel and all the other sections"


def page(declares_summary: bool) -> bytes:
    items = "".join(
        f'<li><a href="/news/{i}">Related story {i}</a> <a rel="author" href="/people/{i}">Person {i}</a> '
        f'<time datetime="2019-01-{1 + i % 28:02d}">then</time><p>Related story number {i}, a paragraph long '
        f"enough to be prose if it did not sit in an aside, which it does.</p></li>\n"
        for i in range(100))
    description = '<meta property="og:description" content="Declared.">' if declares_summary else ""
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tram line</title>
<meta property="og:title" content="Tram line">{description}
<meta property="og:image" content="/img/og.png?w=120&amp;h=63"></head><body>
<nav><p>{NAV}</p></nav>
<aside class="related"><h2>Related</h2><ul>
{items}</ul></aside>
<main><article><header><h1>Tram line</h1><span class="byline">By Ann Lee</span>
<time datetime="{ARTICLE_DATE}">3 May</time></header>
<p>{PROSE}</p></article></main>
<footer><time datetime="2025-12-31">Last updated</time><p>{NAV} in the footer</p></footer>
</body></html>""".encode()


def serve(body: bytes):
    def handler(h, path, q):
        h.send(200, body)
    return handler


def parsed_and_fetched(body: bytes, route: str, server, fetch, run_cli, tmp_path) -> list:
    """`parse` of the page as https://news.example/a/1, then `fetch` of it from the
    test's server at `route`: both results, each checked to have succeeded."""
    page = tmp_path / "page.html"
    page.write_bytes(body)
    server.add_route(route, serve(body))
    results = [run_cli("parse", "--url", "https://news.example/a/1", str(page)),
               fetch("--no-subresources", server.url(route))]
    for res in results:
        assert res.returncode == 0, res.describe()
    return results


def test_the_article_wins_over_a_related_list_before_it(server, fetch):
    body = page(declares_summary=True)
    assert 16 * 1024 < len(body) < 48 * 1024  # the article lies past the first 16 KiB of body, within the budget
    server.add_route("/body-context/declared", serve(body))
    res = fetch("--no-subresources", server.url("/body-context/declared"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m.get("author") == "Ann Lee", res.describe()
    assert m["sources"]["author"] == "byline"
    assert m.get("publishedTime") == ARTICLE_DATE
    assert m["sources"]["publishedTime"] == "time element"
    assert m["summary"] == "Declared."


def test_the_summary_skips_navigation_and_the_aside(server, fetch):
    server.add_route("/body-context/undeclared", serve(page(declares_summary=False)))
    res = fetch("--no-subresources", server.url("/body-context/undeclared"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m.get("summary") == PROSE, res.describe()
    assert m["sources"]["summary"] == "first paragraph"
    assert m.get("author") == "Ann Lee"


# Hand-written article headers (hashed class names, no author or date in the
# head): a byline whose label sits alone in its element, a bare `<time>`, and
# a date only in an element whose class names it, past 36 KiB of body and
# followed by as much. Each is read by `parse` and by `fetch` (whose head
# gives the title, summary and image but no author or date, so the body is
# parsed on for them).
SHAPES = {
    "label-sibling": ('<div class="x7f3a"><span>By </span><span>Ann Lee</span></div>', "Ann Lee", None),
    "label-link": ('<div class="x7f3a"><span>Written by</span> <a href="/people/ann-lee">Ann Lee</a></div>',
                   "Ann Lee", None),
    "bare-time": ('<div class="c9a"><time>March 9, 2021</time> <time>4 months ago</time></div>', None, "2021-03-09"),
    "date-div": ('<div class="article-date">March 9, 2021</div><span class="ago">4 months ago</span>', None, "2021-03-09"),
    # A credit line with the date after the name, in a paragraph or an <address>.
    "credit-on-date": ('<p class="meta">By Ann Lee on Tuesday, March 9, 2021 8:15 PM</p>', "Ann Lee", "2021-03-09T20:15:00"),
    "address-date": ('<address>By Ann Lee<br>9 March 2021, 08:15 GMT</address>', "Ann Lee", "2021-03-09T08:15:00Z"),
    # A wire agency after the name.
    "agency": ('<p class="d41">By ANN LEE Associated Press</p>', "ANN LEE", None),
    # A microdata author named only in a <meta> inside the item.
    "microdata-meta": ('<div itemprop="author" itemscope itemtype="https://schema.org/Person">'
                       '<meta itemprop="name" content="Ann Lee"><a href="/people/ann-lee" itemprop="url">View profile</a></div>',
                       "Ann Lee", None),
}


PAD = "".join(f"<div><p>{PROSE}</p></div>" for _ in range(300))


def shape_page(header: str, related_dates: bool) -> bytes:
    # Other stories' bare dates before the article, for the date shapes to win over.
    related = "".join(f'<li><a href="/b/{i}">Other story {i}</a> <time>June {1 + i}, 2020</time></li>'
                      for i in range(5 if related_dates else 0))
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tram line</title>
<meta property="og:type" content="article"><meta property="og:description" content="Declared.">
<meta property="og:image" content="/img/og.png"></head><body>
<nav><p>{NAV}</p></nav>{PAD}<aside class="k2"><ul>{related}</ul></aside>
<main><div class="a81f3"><h1 class="b2c9d">Tram line</h1>{header}</div>
<div class="f00d1"><p>{PROSE}</p></div></main>{PAD}</body></html>""".encode()


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shapes_a_template_writes_without_markers(name, server, fetch, run_cli, tmp_path):
    header, author, date = SHAPES[name]
    body = shape_page(header, related_dates=date is not None)
    for res in parsed_and_fetched(body, f"/body-context/shape/{name}", server, fetch, run_cli, tmp_path):
        m = res.one
        assert m.get("author") == author, res.describe()
        assert m.get("publishedTime") == date, res.describe()


# The same shapes on a page that is no article and whose head gives the
# title, summary and image (not the author or date): `fetch` holds its body
# unparsed until a raw sign of a missing field shows. A label alone in its
# element ("By", "Written by", "Published:") is such a sign; without it the
# byline or date was found by `parse` and missed by `fetch`.
LONE_LABELS = {
    "label-sibling": ('<div class="x7f3a"><span>By </span><span>Ann Lee</span></div>', "Ann Lee", None),
    "label-link": ('<div class="x7f3a"><span>\n  Written by\n</span> <a href="/people/ann-lee">Ann Lee</a></div>',
                   "Ann Lee", None),
    "label-date": ('<p class="q1"><span>Published:</span> <span>March 9, 2021</span></p>', None, "2021-03-09"),
}


def plain_page(header: str) -> bytes:
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tram line</title>
<meta property="og:description" content="Declared."><meta property="og:image" content="/img/og.png"></head><body>
<nav><p>{NAV}</p></nav>{PAD}<main><div class="a81f3"><h1 class="b2c9d">Tram line</h1>{header}</div>
<div class="f00d1"><p>{PROSE}</p></div></main>{PAD}</body></html>""".encode()


@pytest.mark.parametrize("name", sorted(LONE_LABELS))
def test_a_lone_label_on_a_page_that_is_no_article(name, server, fetch, run_cli, tmp_path):
    header, author, date = LONE_LABELS[name]
    body = plain_page(header)
    for res in parsed_and_fetched(body, f"/body-context/lone/{name}", server, fetch, run_cli, tmp_path):
        m = res.one
        assert m.get("author") == author, res.describe()
        assert m.get("publishedTime") == date, res.describe()
        assert m["summary"] == "Declared."


# Lead images and lead text as templates write them, on a page that declares
# neither (hashed class names): read alike by `parse` and by `fetch`.
SECOND = "Commuters lined up before dawn to be among the first to ride it."
PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
LEADS = {
    # A lazy image: a placeholder in the visible <img>, the real one in <noscript>.
    "noscript-pixel": (f'<figure><img src="{PIXEL}" class="lazyload" width="800" height="450" alt="The tram">'
                       '<noscript><img src="/media/tram.jpg" width="800" height="450" alt="The tram"></noscript></figure>'
                       f"<p>{PROSE}</p>", "/media/tram.jpg", PROSE),
    "noscript-grey": ('<figure><img src="/static/grey.gif" class="js-lazy" width="800" height="450" alt="The tram">'
                      '<noscript><img src="/media/tram.jpg" alt="The tram"></noscript></figure>'
                      f"<p>{PROSE}</p>", "/media/tram.jpg", PROSE),
    # Lead lines in a <div> after a hidden widget, or before a <p> of the same <div>.
    "hidden-first": (f'<div class="s7"><div aria-hidden="true"><button>Listen</button> 4 min</div>{PROSE}<br><br>'
                     f"{SECOND}</div>", None, f"{PROSE} {SECOND}"),
    "paragraph-after": (f'<div class="s7">{PROSE}<br><br>{SECOND}<p>A later paragraph of the story that is long '
                        "enough to be read as its summary on its own.</p></div>", None, f"{PROSE} {SECOND}"),
}


def lead_page(lead: str) -> bytes:
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tram line</title></head><body>
<nav><p>{NAV}</p></nav><main><div class="a81f3"><h1 class="b2c9d">Tram line</h1>{lead}</div></main>
</body></html>""".encode()


@pytest.mark.parametrize("name", sorted(LEADS))
def test_lead_images_and_text_as_templates_write_them(name, server, fetch, run_cli, tmp_path):
    lead, image, summary = LEADS[name]
    body = lead_page(lead)
    route = f"/body-context/lead/{name}"
    results = parsed_and_fetched(body, route, server, fetch, run_cli, tmp_path)
    for res, base in zip(results, ("https://news.example", server.url(""))):
        m = res.one
        assert m.get("summary") == summary, res.describe()
        if image:
            assert m["image"]["url"] == base.rstrip("/") + image, res.describe()
