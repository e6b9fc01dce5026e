"""Bylines, dates and summaries by where they sit on the page, over the network.

`linkpeek fetch` against the fixture server: a page whose navigation and
related-articles list (in `<aside>`, about 20 KiB of other people's names,
dates and paragraphs) come before the article, and whose footer carries a
`<time>` of its own. The article's byline, date and first paragraph must win,
read through the fetch's early stop and read budget (the head declares the
main fields, so the body is held until it shows a sign of a byline or date).
"""

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
