"""linkpeek serve as a language server, over LSP framing, against the real
binary and the loopback fixture server: hover cards, plain text, hostile
titles, the hover budget, positions in three encodings, incremental sync,
documentLink, render, and cancelling a hover.
"""

from __future__ import annotations

import html
import re
import time

import pytest

from linkpeek_client import LinkPeekError
from test_daemon import uniq

URI = "file:///notes.md"

HOSTILE_TITLE = "<img src=x onerror=alert(1)> ]( javascript:alert(1)) `code` [x](https://evil.example)"
HOSTILE_SUMMARY = "# Heading\n```\nfence\n```\n<script>alert(1)</script> &amp; more"


@pytest.fixture(scope="module")
def pages(server):
    """Routes this module adds to the shared fixture server."""
    def hostile(h, path, q):
        attr = html.escape
        h.send(200, f"""<!DOCTYPE html><html><head><title>x</title>
<meta property="og:title" content="{attr(HOSTILE_TITLE)}">
<meta property="og:description" content="{attr(HOSTILE_SUMMARY)}">
<meta property="og:image" content="javascript:alert(1)">
</head><body>x</body></html>""".encode())

    def title_first(h, path, q):
        # The head is at once; the image it names takes 3 s, so the card is
        # known by title long before the fetch is done.
        h.send(200, f"""<!DOCTYPE html><html><head><title>Title First</title>
<meta property="og:image" content="{h.base}/slow?ms=3000">
<link rel="icon" href="/img/icon.gif?w=16&amp;h=16">
</head><body>x</body></html>""".encode())

    server.add_route("/lsp-hostile", hostile)
    server.add_route("/lsp-title-first", title_first)
    return server


@pytest.fixture
def lsp(make_client):
    """lsp(init_options=None, capabilities=None) -> an initialised client; checked against the schemas at teardown."""
    return lambda init_options=None, capabilities=None: make_client(
        init_options=init_options, capabilities=capabilities, timeout=20)


def card(result) -> str:
    assert result is not None, "expected a hover card, got null"
    assert result["contents"]["kind"] == "markdown"
    return result["contents"]["value"]


# The card's image line: a thumbnail linkpeek made, as a data: URI (never the page's image URL).
DATA_IMAGE = re.compile(r"!\[[^\]]*\]\(data:image/jpeg;base64,[A-Za-z0-9+/]+=*\)")


def unescaped(text: str, pattern: str) -> list:
    """Offsets of `pattern` in `text` whose first character is not backslash-escaped."""
    return [m.start() for m in re.finditer(re.escape(pattern), text)
            if (len(text[:m.start()]) - len(text[:m.start()].rstrip("\\"))) % 2 == 0]


def test_hover_shows_the_page_card_and_plain_text_shows_nothing(lsp, pages):
    url = pages.url("/page?title=Fixture%20Title")
    c = lsp()
    assert c.initialize_result["capabilities"]["hoverProvider"] is True
    assert c.initialize_result["capabilities"]["textDocumentSync"] == {"openClose": True, "change": 2}
    c.did_open(URI, f"# Notes\n\nRead [this]({url}) later.\nNothing here.\n")
    start = len("Read [this](")
    result = c.hover(URI, 2, start + 3)
    value = card(result)
    head, image_line = value.rsplit("\n\n", 1)
    assert head == f"**Fixture Title**\n\nFixture Site · 127.0.0.1:{pages.port}\n\nAn Open Graph description.", value
    assert DATA_IMAGE.fullmatch(image_line), value
    # The hover covers the link's words and its URL; hovering the words shows the same card.
    label = len("Read ")
    assert result["range"] == {"start": {"line": 2, "character": label}, "end": {"line": 2, "character": start + len(url)}}
    assert c.hover(URI, 2, label + 2) == result
    assert c.hover(URI, 3, 2) is None
    assert c.hover(URI, 2, 1) is None
    links = c.document_links(URI)
    assert links == [{"range": {"start": {"line": 2, "character": start}, "end": {"line": 2, "character": start + len(url)}},
                      "target": url}]
    resolved = c.request("documentLink/resolve", links[0])
    assert resolved["tooltip"] == "Fixture Title"


def test_hover_on_a_reference_link_shows_its_definitions_card(lsp, pages):
    url = pages.url("/page?title=Referenced")
    c = lsp()
    c.did_open(URI, f"Read [the guide][g] first.\n\n[g]: {url}\n")
    result = c.hover(URI, 0, 8)
    assert card(result).startswith("**Referenced**\n\n")
    assert result["range"] == {"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 19}}
    assert c.hover(URI, 0, 2) is None


def test_a_hostile_title_cannot_inject_markdown_or_html(lsp, pages):
    url = pages.url("/lsp-hostile")
    c = lsp()
    c.did_open(URI, f"<{url}>")
    value = card(c.hover(URI, 0, 5))
    # No link and no image (javascript: is never fetched, so never embedded):
    # every `[` is escaped, so no `](` can close one.
    assert unescaped(value, "[") == [] and unescaped(value, "](") == [], value
    assert "![" not in value and "javascript:alert(1)\n" not in value, value
    assert unescaped(value, "<") == [], value
    assert unescaped(value, "`") == [], value
    # No entity can be decoded into markup; a lone "&" stays as written.
    entity = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
    assert [i for i in unescaped(value, "&") if entity.match(value, i)] == [], value
    assert "\\<script>alert(1)\\</script> & more" in value, value
    assert "\n#" not in value and "\n```" not in value, value
    assert value.startswith("**\\<img src=x onerror=alert(1)> \\]( javascript:alert(1)) \\`code\\` \\[x\\](https://evil.example)**"), value
    # The same cards through render: HTML escapes everything, text has no escape sequences.
    page = c.render("html", url=url)
    assert "<img src=x" not in page and "<script" not in page and '="javascript' not in page, page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "\x1b" not in c.render("text", url=url, color=False)


def test_a_slow_page_answers_within_the_budget_then_shows_the_full_card(lsp, pages):
    url = pages.url("/lsp-title-first")
    c = lsp(init_options={"hoverTimeout": 0.5})
    c.did_open(URI, f"see {url}")
    # Answered within the budget: the card says the image is still loading (its server takes 3 s), so the
    # answer came before the fetch finished. An order, not a time.
    first = card(c.hover(URI, 0, 6))
    # The image is named but not fetched yet: no image line, and never its URL.
    assert first == f"**Title First**\n\n127.0.0.1:{pages.port}\n\n*loading…*", first
    # The fetch goes on: a later hover shows the full card (bounded wait).
    deadline = time.monotonic() + 15
    while True:
        later = card(c.hover(URI, 0, 6))
        if "loading" not in later:
            break
        assert time.monotonic() < deadline, f"still loading after 15 s: {later}"
        time.sleep(0.2)
    assert later.startswith("**Title First**\n\n"), later
    assert "*loading…*" not in later


def test_a_cancelled_hover_is_answered_and_the_server_stays_responsive(lsp, pages):
    key = uniq()
    url = pages.url(f"/held?key={key}&title=Slow%20Cancel")
    c = lsp(init_options={"hoverTimeout": 10})
    c.did_open(URI, f"{url}\nplain")
    fut = c.hover_async(URI, 0, 3)
    # A state, not a pause: the hover's fetch is at the server, held there until the test lets it go.
    assert pages.wait_in_flight(key, 1, 20), "the hover's page request never reached the server"
    c.cancel_request(fut.request_id)
    with pytest.raises(LinkPeekError) as err:
        fut.result(timeout=5)
    assert err.value.code == -32800
    assert c.hover(URI, 1, 1, wait=2) is None
    pages.release(key)
    # The shared fetch was not cancelled: its result lands in the cache.
    deadline = time.monotonic() + 15
    while c.get_cached(url) is None:
        assert time.monotonic() < deadline, "the hover's cancel cancelled the shared fetch"
        time.sleep(0.1)
    assert c.get_cached(url)["title"] == "Slow Cancel"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_positions_in_each_encoding(lsp, pages, encoding):
    url = pages.url("/page?title=Encoded")
    prefix = "🙂 日本語 e\u0301\u0327 👩‍💻 "
    c = lsp(capabilities={"general": {"positionEncodings": [encoding]}})
    assert c.initialize_result["capabilities"]["positionEncoding"] == encoding

    def width(s: str) -> int:
        if encoding == "utf-8":
            return len(s.encode("utf-8"))
        if encoding == "utf-16":
            return len(s.encode("utf-16-le")) // 2
        return len(s)

    c.did_open(URI, f"first line\n{prefix}{url} after")
    start, end = width(prefix), width(prefix) + width(url)
    result = c.hover(URI, 1, start)
    assert card(result).startswith("**Encoded**")
    assert result["range"] == {"start": {"line": 1, "character": start}, "end": {"line": 1, "character": end}}
    assert c.hover(URI, 1, start - 1) is None
    assert c.hover(URI, 1, end) is None
    # An incremental edit before the URL, in the same encoding, moves it.
    insert = "ñ🙂"
    c.did_change(URI, [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "text": insert}])
    moved = c.document_links(URI)
    assert moved == [{"range": {"start": {"line": 1, "character": start + width(insert)},
                                "end": {"line": 1, "character": end + width(insert)}}, "target": url}]


def test_incremental_sync_follows_edits(lsp, pages):
    url = pages.url("/page?title=Edited")
    c = lsp()
    c.did_open(URI, "line one\nline two\n")
    assert c.document_links(URI) == []
    # Type a space and a URL at the end of line two ("line two" is 8 long), one character at a time.
    text_start = 9
    for i, ch in enumerate(" " + url):
        c.did_change(URI, [{"range": {"start": {"line": 1, "character": 8 + i}, "end": {"line": 1, "character": 8 + i}},
                            "text": ch}], version=2 + i)
    links = c.document_links(URI)
    assert links == [{"range": {"start": {"line": 1, "character": text_start}, "end": {"line": 1, "character": text_start + len(url)}},
                      "target": url}]
    assert card(c.hover(URI, 1, text_start + 2)).startswith("**Edited**")
    # Delete line one (a multi-line range): the URL moves up.
    c.did_change(URI, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "text": ""}], version=99)
    assert c.document_links(URI)[0]["range"]["start"] == {"line": 0, "character": text_start}
    # A full-text change replaces everything.
    c.did_change(URI, [{"text": "no links"}], version=100)
    assert c.document_links(URI) == []
    c.did_close(URI)
    assert c.document_links(URI) is None


def hover_progress(c, fut, token) -> list[str]:
    """The kinds sent on the hover's work-done token, checked to come before its answer."""
    seq = [(i, m) for i, (_, _, m) in enumerate(c.received)]
    progress = [(i, m["params"]["value"]) for i, m in seq
                if isinstance(m, dict) and m.get("method") == "$/progress" and m["params"]["token"] == token]
    answer_at = next(i for i, m in seq if isinstance(m, dict) and m.get("id") == fut.request_id)
    assert progress and progress[0][1]["cancellable"] is True, progress
    assert progress[-1][0] < answer_at, "the end must come before the hover's answer"
    return [v["kind"] for _, v in progress]


def test_hover_reports_progress_on_its_work_done_token(lsp, pages):
    """A page that answers at once (the hover may join a fetch already done before it listens), then the
    same URL from the cache: each hover's token gets exactly one `begin` and one `end`, before the answer.
    (The page once answered after 400 ms to hide a race: a hover whose fetch ended before it listened got
    no progress at all.)"""
    url = pages.url(f"/page?title=Progress%20Hover&u={uniq()}")
    c = lsp(init_options={"hoverTimeout": 10})
    c.did_open(URI, url)
    for token in ("hover-1", "hover-cached"):
        fut = c.hover_async(URI, 0, 2, work_done_token=token)
        assert card(fut.result(timeout=15)).startswith("**Progress Hover**")
        kinds = hover_progress(c, fut, token)
        assert kinds[0] == "begin" and kinds[-1] == "end", kinds
        assert kinds.count("begin") == 1 and kinds.count("end") == 1, kinds


def test_a_hover_joining_a_prefetch_gets_begin_and_end_and_no_second_fetch(lsp, pages):
    """Prefetch starts the page's fetch when the document opens; a hover of it joins that fetch (the
    page is requested once) and its token gets `begin` and `end`."""
    u = uniq()
    url = pages.url(f"/slow?ms=1500&title=Joined&u={u}")
    c = lsp(init_options={"prefetch": True, "hoverTimeout": 10})
    c.did_open(URI, url)
    target = f"/slow?ms=1500&title=Joined&u={u}"
    # A state, not a pause: the server has the page's request before the hover is sent.
    assert pages.wait_hits(target, 1, 15) and pages.hits(target) == 1, "the prefetch never asked for the page"
    fut = c.hover_async(URI, 0, 2, work_done_token="joiner")
    assert card(fut.result(timeout=15)).startswith("**Joined**")
    kinds = hover_progress(c, fut, "joiner")
    assert kinds[0] == "begin" and kinds[-1] == "end" and kinds.count("begin") == kinds.count("end") == 1, kinds
    assert pages.hits(target) == 1


def test_work_done_progress_cancel_ends_a_fetch(lsp, pages):
    c = lsp()
    fut = c.fetch_async(pages.url("/never?s=30"), work_done_token="cancel-me")
    c.wait_for(lambda m: isinstance(m, dict) and m.get("method") == "$/progress"
               and m["params"]["token"] == "cancel-me", 10)
    c.notify("window/workDoneProgress/cancel", {"token": "cancel-me"})
    # Answered before the page (which never answers, and is dropped after 30 s) could end: by the cancel.
    with pytest.raises(LinkPeekError) as err:
        fut.result(timeout=20)
    assert err.value.code == -32800 and err.value.kind == "cancelled"
    # The token is free again.
    again = c.fetch_async(pages.url("/page?title=After"), work_done_token="cancel-me")
    assert again.result(timeout=15)["title"] == "After"


def test_prefetch_fills_the_cache_for_opened_documents(lsp, pages):
    urls = [pages.url(f"/page?title=Prefetched%20{i}") for i in range(3)]
    c = lsp(init_options={"prefetch": True, "hoverTimeout": 0})
    c.did_open(URI, "\n".join(f"- <{u}>" for u in urls))
    deadline = time.monotonic() + 15
    while any(c.get_cached(u) is None for u in urls):
        assert time.monotonic() < deadline, "prefetch did not fill the cache within 15 s"
        time.sleep(0.1)
    # With a budget of zero, only a cached card can be whole: the first hover is.
    assert card(c.hover(URI, 1, 5)).startswith("**Prefetched 1**")


def test_a_document_over_the_line_limit_is_kept_without_links(lsp, pages):
    url = pages.url("/page?title=Big")
    c = lsp()
    c.did_open(URI, f"{url}\n" + "\n" * 400_000)  # 400,002 lines: over the 400,000 limit
    assert c.hover(URI, 0, 3) is None
    assert c.document_links(URI) is None
    deadline = time.monotonic() + 5
    while not any("tracked without scanning for links" in l for l in list(c.stderr_tail)):
        assert time.monotonic() < deadline, f"no log line: {list(c.stderr_tail)[-5:]}"
        time.sleep(0.05)
    # A full-text change under the limit brings it back.
    c.did_change(URI, [{"text": f"{url}\n"}])
    assert card(c.hover(URI, 0, 3)).startswith("**Big**")
