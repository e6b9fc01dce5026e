"""Fuzzes the head scanner and the rules: mutated pages through `linkpeek
parse`, one process per case, each with a time and an RSS bound.

Mutations: truncation at random points, splices of two pages, random
`<meta charset>` labels, byte order marks, NULs, 10,000 nested tags, 1 MB
attribute values, unclosed comments and scripts, numeric entities past
U+10FFFF, invalid UTF-8, and the generic byte mutators. A case fails on a
signal, a run past its time bound, an exit code other than 0, RSS past its
bound, or output that is not one JSON object.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import fuzzlib

sys.path.insert(0, str(fuzzlib.REPO / "Tests" / "integration"))
from procinfo import run_measured  # noqa: E402

TIME_BOUND = 10.0
RSS_BOUND_KB = 200 * 1024

LABELS = ["utf-8", "shift_jis", "euc-jp", "iso-2022-jp", "gb2312", "gb18030", "big5", "euc-kr", "windows-1251",
          "koi8-r", "iso-8859-8-i", "utf-16le", "utf-16be", "x-user-defined", "replacement", "unicode-1-1-utf-8",
          "bogus", "", "utf-7", "\x00", "latin1" * 50]


def base_pages() -> list[bytes]:
    article = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>An article | Example News</title>
<meta property="og:title" content="An article">
<meta property="og:description" content="What happened &amp; why.">
<meta property="og:image" content="/img/a.png"><meta property="og:image:width" content="1200">
<meta name="twitter:card" content="summary_large_image"><link rel="icon" href="/favicon.png" sizes="32x32">
<link rel="canonical" href="https://page.invalid/a"><base href="/base/">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
"headline":"An article","author":[{"@type":"Person","name":"Ann Writer"}],"datePublished":"2026-01-02T03:04:05+01:00",
"publisher":{"@id":"#org"},"@graph":[{"@id":"#org","name":"Example News","logo":{"url":"/logo.png"}}]}</script>
<style>p > a { color: red }</style></head><body><article><h1>An article</h1>
<p class="byline">By <a rel="author" href="/ann">Ann Writer</a> <time datetime="2026-01-02">Jan 2</time></p>
<p>First paragraph of the story, long enough to be a summary for a card that a person reads.</p>
<video src="/v.mp4" poster="/p.jpg"></video><div itemscope itemtype="https://schema.org/Person"><span itemprop="name">X</span></div>
</article></body></html>"""
    legacy = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><title>'.encode() \
        + "日本語のタイトル".encode("shift_jis") + b"</title></head><body>\x82\xa0</body></html>"
    minimal = b"<title>t</title><p>x"
    xhtml = b'<?xml version="1.0" encoding="iso-8859-1"?><html xmlns="http://www.w3.org/1999/xhtml" xml:lang="fr"><head>' \
        b'<title>caf\xe9</title><meta name="description" content="d\xe9j\xe0"/></head></html>'
    svg_title = b"<html><head><svg><title>drawing</title></svg><title>page</title><meta property='og:video' content='/e'></head>"
    return [article.encode(), legacy, minimal, xhtml, svg_title]


def mutate_page(rng: random.Random, pages: list[bytes]) -> bytes:
    page = rng.choice(pages)
    kind = rng.randrange(12)
    if kind == 0:
        page = fuzzlib.truncate(rng, page)
    elif kind == 1:
        page = fuzzlib.splice(rng, page, rng.choice(pages))
    elif kind == 2:
        page = b'<meta charset="' + rng.choice(LABELS).encode() + b'">' + page
    elif kind == 3:
        page = rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"]) + page
    elif kind == 4:
        page = fuzzlib.insert(rng, page, b"\x00" * rng.randint(1, 100))
    elif kind == 5:
        tag = rng.choice([b"div", b"span", b"head", b"svg", b"video", b"title", b"a"])
        depth = rng.choice([100, 10_000])
        page = fuzzlib.insert(rng, page, (b"<" + tag + b">") * depth)
    elif kind == 6:
        page = fuzzlib.insert(rng, page, b'<meta property="og:title" content="' + b"x" * rng.choice([1 << 16, 1 << 20]) + b'">')
    elif kind == 7:
        page = fuzzlib.insert(rng, page, rng.choice([b"<!--", b"<script>", b"<style>", b"<title>", b"<![CDATA[", b"<?"]))
    elif kind == 8:
        entity = rng.choice([b"&#x110000;", b"&#99999999999999999999;", b"&#0;", b"&#xD800;", b"&#x10FFFF;", b"&#;", b"&"])
        page = fuzzlib.insert(rng, page, entity * rng.randint(1, 1000))
    elif kind == 9:
        page = fuzzlib.insert(rng, page, b'<script type="application/ld+json">' + rng.choice([
            b'{"a":' + b"9" * 400 + b"}", b"[" * 5000, b'{"@graph":' + b'[{"@id":"#a","author":{"@id":"#a"}}]' + b"}",
            b'{"author":' + b'{"name":' * 2000 + b'"x"' + b"}" * 2000 + b"}", b'{"datePublished":1e400}']) + b"</script>")
    elif kind == 10:
        page = fuzzlib.insert(rng, page, b'<svg width="1e400" height="1e-400" viewBox="0 0 1e-300 1e300">')
    else:
        page = fuzzlib.mutate_bytes(rng, page, pages)
    return page


def check(report: fuzzlib.Report, index, page: bytes, content_type: str | None) -> None:
    cmd = [fuzzlib.binary(), "parse", "--url", "http://page.invalid/dir/page.html"]
    if content_type:
        cmd += ["--content-type", content_type.replace("\x00", "")]  # argv cannot carry NUL
    m = run_measured(cmd, page, timeout=TIME_BOUND, poll=0.01)
    reason = fuzzlib.one_object_verdict(m, TIME_BOUND, rss_bound_kb=RSS_BOUND_KB)
    if reason:
        report.fail(index, reason + (f" (content type {content_type!r})" if content_type else ""), page, ".html")


def run(seconds: float, seed: int, max_cases: int | None = None) -> fuzzlib.Report:
    report = fuzzlib.Report("html", seed)
    rng = random.Random(seed)
    pages = base_pages()
    for path in fuzzlib.corpus("html"):
        check(report, path.name, path.read_bytes(), None)
        report.corpus_cases += 1
    for index in fuzzlib.deadline_loop(seconds, max_cases):
        page = mutate_page(rng, pages)
        content_type = rng.choice([None, None, "text/html; charset=" + rng.choice(LABELS), "application/xhtml+xml"])
        check(report, index, page, content_type)
        report.cases += 1
    return report
