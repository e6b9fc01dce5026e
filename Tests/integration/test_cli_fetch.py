"""`linkpeek fetch` and `linkpeek parse`, run as a real process against the fixture server."""

from __future__ import annotations

import json
import re
import socket
import time
import urllib.parse
import uuid

import pytest

from conftest import assert_error
from test_cli_cards import run_on_tty
from fixture_server import (BIG3MB_HEAD, ENCODING_CASES, LATE_HEAD, FixtureServer, brotli_available, gif_bytes,
                            ico_bytes, jpeg_bytes, png_bytes)

KiB = 1024
MiB = 1024 * KiB
# curl hands data over in blocks of up to 16 KiB (more after decompression):
# the last block may overshoot a limit by that much.
SLACK = 32 * KiB
# Most a page is read past its head: the 64 KiB budget, searched on (unparsed)
# to 128 KiB for a late byline or date when the page declared none, + 8 KiB
# parsed after a sign.
READ = 136 * KiB
RSS_LIMIT_KB = 100 * 1024


# ------------------------------------------------------------------ pages and sources

def test_open_graph_page(server, fetch):
    url = server.url("/page")
    res = fetch(url)
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["originalURL"] == url
    assert m["url"] == url
    assert m["title"] == "Fixture Page"
    assert m["summary"] == "An Open Graph description."
    assert m["siteName"] == "Fixture Site"
    assert m.get("type") == "article"
    assert m.get("lang") == "en"
    assert m.get("canonicalURL") == server.url("/canonical")
    assert m["sources"]["title"] == "og:title", m["sources"]
    assert m["richness"] == "image"
    img = m["image"]
    assert img["url"] == server.url("/img/og.png?w=120&h=63")
    assert (img.get("width"), img.get("height")) == (120, 63)
    assert img.get("type") == "image/png"
    assert img.get("bytes") == len(png_bytes(120, 63, (200, 30, 30)))
    icon = m["icon"]
    assert icon["url"] == server.url("/img/icon.gif?w=32&h=32")
    assert icon.get("type") == "image/gif"
    assert (icon.get("width"), icon.get("height")) == (32, 32)
    assert icon.get("bytes") == len(gif_bytes(32, 32))
    assert not m.get("truncated")
    assert isinstance(m.get("bytesRead"), int) and m["bytesRead"] > 0


def test_no_subresources_fetches_only_the_page(server, fetch):
    url = server.url("/page?title=nosub")
    before = server.hits("/img/og.png"), server.hits("/img/icon.gif"), server.hits("/favicon.ico")
    res = fetch("--no-subresources", url)
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "nosub"
    assert m["image"]["url"] == server.url("/img/og.png?w=120&h=63")
    assert "bytes" not in m["image"]
    after = server.hits("/img/og.png"), server.hits("/img/icon.gif"), server.hits("/favicon.ico")
    assert after == before, "subresources were fetched despite --no-subresources"


def test_twitter_card_page(server, fetch):
    res = fetch(server.url("/twitter"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "Twitter Card Title"
    assert m["summary"] == "A Twitter description."
    assert m["sources"]["title"].startswith("twitter:"), m["sources"]
    img = m["image"]
    assert img["url"] == server.url("/img/tw.jpg?w=64&h=48")
    assert img.get("type") == "image/jpeg"
    assert (img.get("width"), img.get("height")) == (64, 48)
    assert img.get("bytes") == len(jpeg_bytes(64, 48))


def test_plain_html_page_and_favicon_fallback(server, fetch):
    before = server.hits("/favicon.ico")
    res = fetch(server.url("/html"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "Plain & Simple Title"  # entities decoded, whitespace collapsed, <svg><title> ignored
    assert m["summary"] == "Plain description."
    assert m["icon"]["url"] == server.url("/favicon.ico")
    assert (m["icon"].get("width"), m["icon"].get("height")) == (16, 16)
    assert m["icon"].get("bytes") == len(ico_bytes(16))
    assert m["richness"] == "icon"
    assert server.hits("/favicon.ico") == before + 1


def test_json_ld_and_broken_block_skipped(server, fetch):
    res = fetch("--no-subresources", server.url("/jsonld"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "JSON-LD Headline"
    assert m["summary"] == "JSON-LD description."
    assert m.get("author") == "Ada Lovelace"
    assert str(m.get("publishedTime", "")).startswith("2024-05-06")


def test_no_content_type_is_sniffed(server, fetch):
    res = fetch("--no-subresources", server.url("/notype"))
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "No Content-Type"


def test_gzip_content_encoding(server, fetch):
    res = fetch("--no-subresources", server.url("/gzip"))
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "Gzip Page"


def test_only_the_codings_linkpeek_decodes_are_asked_for(server, fetch):
    """linkpeek undoes gzip and deflate itself, as far as it reads; curl would decode br and zstd
    too, but in full: they are not asked for."""
    res = fetch("--no-subresources", server.url("/accept-encoding"))
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "gzip, deflate"


@pytest.mark.parametrize("coding", ["gzip", "gzip-members", "zlib", "raw"])
def test_gzip_and_deflate_pages(server, fetch, coding):
    res = fetch("--no-subresources", server.url(f"/coded?c={coding}"))
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "Coded Page", res.describe()
    assert res.one["summary"] == "An Open Graph description.", res.describe()


@pytest.mark.parametrize("query", ["c=br", "c=zstd", "c=compress", "c=gzip&damage=1", "c=raw&damage=1"])
def test_an_unknown_or_damaged_coding_is_an_error(server, fetch, query):
    res = fetch("--no-subresources", server.url(f"/coded?{query}"))
    assert_error(res.one, kind="failed", res=res)


def test_brotli_sent_unasked_is_an_unknown_coding(server, fetch):
    if not brotli_available():
        pytest.skip("no brotli encoder (python brotli module or brotli CLI) on this machine")
    res = fetch("--no-subresources", server.url("/br"))
    assert_error(res.one, kind="failed", res=res)


def test_default_user_agent_says_bot(server, fetch):
    res = fetch("--no-subresources", server.url("/ua"))
    assert res.returncode == 0, res.describe()
    # A literal, not one built from the binary's own --version: a wrong version would pass that.
    assert res.one["title"] == "Mozilla/5.0 (compatible; linkpeek/0.1.0; link preview bot)"


def test_custom_user_agent(server, fetch):
    res = fetch("--no-subresources", "--user-agent", "CustomAgent/1.0", server.url("/ua?x=1"))
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "CustomAgent/1.0"


# ------------------------------------------------------------------ encodings

@pytest.mark.parametrize("case", sorted(ENCODING_CASES))
def test_encodings(server, fetch, case):
    codec, title, *_ = ENCODING_CASES[case]
    res = fetch("--no-subresources", server.url(f"/enc/{case}"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m.get("title") == title, f"{case}: got {m.get('title')!r}, want {title!r}"
    assert m.get("summary") == title + " / description"


# ------------------------------------------------------------------ images as pages

@pytest.mark.parametrize("ext,ctype,w,h", [("png", "image/png", 300, 200), ("gif", "image/gif", 77, 41),
                                           ("jpg", "image/jpeg", 123, 45)])
def test_image_served_as_page(server, fetch, ext, ctype, w, h):
    url = server.url(f"/img/page.{ext}?w={w}&h={h}")
    res = fetch(url)
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["richness"] == "image"
    assert m["image"]["url"] == url
    assert m["image"].get("type") == ctype
    assert (m["image"].get("width"), m["image"].get("height")) == (w, h)


# ------------------------------------------------------------------ relative URLs

def test_base_href_and_protocol_relative(server, fetch):
    res = fetch("--no-subresources", server.url("/base"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["image"]["url"] == server.url("/assets/img/pic.png?w=10&h=5")
    assert m["icon"]["url"] == f"http://127.0.0.1:{server.port}/img/pr.gif?w=16&h=16"


def test_relative_image_against_final_url_after_redirect(server, fetch):
    res = fetch(server.url("/redirect?status=301&to=/dir/sub/rel"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["url"] == server.url("/dir/sub/rel")
    assert m["image"]["url"] == server.url("/dir/pic.png?w=8&h=4")
    assert (m["image"].get("width"), m["image"].get("height")) == (8, 4)


# ------------------------------------------------------------------ redirects

def redirect_statuses(m: dict) -> list:
    return [h["status"] for h in m.get("redirects", []) if 300 <= h["status"] < 400]


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_single_redirect(server, fetch, status):
    url = server.url(f"/redirect?status={status}&to=/page%3Ftitle%3Dr{status}")
    res = fetch("--no-subresources", url)
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["originalURL"] == url
    assert m["url"] == server.url(f"/page?title=r{status}")
    assert m["title"] == f"r{status}"
    assert redirect_statuses(m) == [status]
    assert m["redirects"][0]["url"] == url


def test_absolute_redirect(server, fetch):
    to = urllib.parse.quote(server.url("/page?title=abs"), safe="")
    res = fetch("--no-subresources", server.url(f"/redirect?status=302&to={to}"))
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "abs"


def test_redirect_chain_mixed(server, fetch):
    res = fetch("--no-subresources", server.url("/chain?n=5"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["url"] == server.url("/chain?n=0")
    assert redirect_statuses(m) == [301, 308, 307, 303, 302]
    hops = [h["url"] for h in m["redirects"]][:5]
    assert hops == [server.url(f"/chain?n={n}") for n in (5, 4, 3, 2, 1)]


def test_redirect_chain_document_relative(server, fetch):
    res = fetch("--no-subresources", server.url("/chain?n=4&rel=1"))
    assert res.returncode == 0, res.describe()
    assert res.one["url"] == server.url("/chain?n=0&rel=1")
    assert len(redirect_statuses(res.one)) == 4


def test_ten_redirects_allowed(server, fetch):
    res = fetch("--no-subresources", server.url("/chain?n=10"))
    assert res.returncode == 0, res.describe()
    assert len(redirect_statuses(res.one)) == 10


def test_eleven_redirects_refused(server, fetch):
    res = fetch("--no-subresources", server.url("/chain?n=11&rel=1"))
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "tooManyRedirects", res)


def test_redirect_loop(server, fetch):
    before = server.hits("/loop/a") + server.hits("/loop/b")
    res = fetch("--no-subresources", server.url("/loop/a"), timeout=30)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "tooManyRedirects", res)
    assert server.hits("/loop/a") + server.hits("/loop/b") - before <= 11


@pytest.mark.parametrize("route", ["/redirect-file", "/redirect-ftp", "/redirect-javascript"])
def test_redirect_to_other_scheme_refused(server, fetch, route):
    res = fetch("--no-subresources", server.url(route))
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "unsupportedScheme", res)
    assert "root:" not in res.stdout


def test_redirect_to_loopback_blocked_when_private_network_off(run_cli, server):
    """A redirect cannot reach an address the policy refuses.

    The origin is a second fixture server on 127.0.0.2, opened with
    `--allow-network 127.0.0.2/32` (and nothing else); it redirects to the
    main fixture server on 127.0.0.1, which stays refused. The hop must fail
    with blockedAddress before any packet reaches 127.0.0.1.
    """
    outside = FixtureServer(host="127.0.0.2").start()
    try:
        allow = ("--allow-network", "127.0.0.2/32", "--no-subresources")
        probe = run_cli("fetch", *allow, outside.url("/page?title=outside"), timeout=30)
        assert probe.returncode == 0, probe.describe()
        assert probe.one["title"] == "outside"
        before = server.total_hits()
        target = urllib.parse.quote(server.url("/page?title=inside"), safe="")
        res = run_cli("fetch", *allow, outside.url(f"/redirect?status=302&to={target}"), timeout=30)
        assert res.returncode == 1, res.describe()
        assert_error(res.one, "failed", "blockedAddress", res)
        assert server.total_hits() == before, "the loopback server was reached through a redirect"
    finally:
        outside.stop()


def test_allow_network_rejects_malformed_ranges(run_cli):
    res = run_cli("fetch", "--allow-network", "10.0.0.0/33", "http://example.com/", parse=False)
    assert res.returncode == 2, res.describe()
    assert "--allow-network" in res.stderr


# ------------------------------------------------------------------ address policy

LOOPBACK_SPELLINGS = ["http://127.0.0.1:{p}/page", "http://2130706433:{p}/page", "http://0x7f.0.0.1:{p}/page",
                      "http://127.1:{p}/page", "http://[::ffff:127.0.0.1]:{p}/page", "http://0.0.0.0:{p}/page",
                      "http://localhost:{p}/page", "http://[::1]:{p}/page", "http://017700000001:{p}/page"]


@pytest.mark.parametrize("spelling", LOOPBACK_SPELLINGS)
def test_loopback_blocked_without_flag(server, fetch, spelling):
    url = spelling.format(p=server.port)
    before = server.total_hits()
    res = fetch(url, private=False, timeout=30)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "blockedAddress", res)
    assert res.one["originalURL"] == url
    assert server.total_hits() == before, f"{url} reached the server although it is blocked"


def test_loopback_allowed_with_flag(server, fetch):
    res = fetch("--no-subresources", f"http://127.1:{server.port}/page?title=short")
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "short"


# ------------------------------------------------------------------ failures

@pytest.mark.parametrize("code", [404, 500])
def test_http_error_status(server, fetch, code):
    res = fetch(server.url(f"/status/{code}"))
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "httpStatus", res)
    assert res.one["error"].get("status") == code


@pytest.mark.parametrize("route", ["/pdf", "/json"])
def test_unsupported_content_type(server, fetch, route):
    res = fetch(server.url(route))
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "unsupportedContentType", res)


def test_empty_body(server, fetch):
    res = fetch(server.url("/empty"))
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "emptyBody", res)


def test_random_bytes_as_html(server, fetch):
    """Issue 2, Bad input: binary garbage as HTML gets its error object and exit code 1."""
    res = fetch(server.url("/random"), timeout=30)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "unsupportedContentType", res)


@pytest.mark.parametrize("url,reasons", [
    ("file:///etc/passwd", {"unsupportedScheme"}),
    ("ftp://example.com/file", {"unsupportedScheme"}),
    # A URL with a scheme that is not http(s) is a URL, of a kind linkpeek does not fetch: one outcome.
    ("javascript:alert(1)", {"unsupportedScheme"}),
    ("data:text/html,<title>x</title>", {"unsupportedScheme"}),
    ("gopher://example.com/", {"unsupportedScheme"}),
    ("http://", {"invalidURL"}),
    ("not a url", {"invalidURL"}),
    ("http://exa mple.com/", {"invalidURL"}),
    ("http://[::1/", {"invalidURL"}),
    ("", {"invalidURL"}),
])
def test_bad_urls(fetch, url, reasons):
    res = fetch(url, timeout=30)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", reasons, res)
    assert res.one["originalURL"] == url
    assert "root:" not in res.stdout


# A 64-octet label is longer than DNS allows (RFC 1035: 63), so the C library's resolver refuses the
# name without sending a query: the "dns" failure without touching a name server or the internet.
UNRESOLVABLE_HOST = "a" * 64 + ".invalid"


def test_host_that_does_not_resolve(fetch):
    res = fetch(f"http://{UNRESOLVABLE_HOST}/", "--timeout", "10", timeout=30)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "dns", res)


def test_tls_failure(server, fetch):
    """https:// to a server that speaks plain HTTP: the handshake fails."""
    res = fetch(f"https://127.0.0.1:{server.port}/page", "--timeout", "10", timeout=30)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "tls", res)


def test_connection_refused(fetch):
    with socket.socket() as s:  # a port that was free a moment ago, nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = fetch(f"http://127.0.0.1:{port}/", "--timeout", "10", timeout=30)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "connect", res)


# ------------------------------------------------------------------ timeouts and limits

@pytest.mark.parametrize("route", ["/drip", "/never"])
def test_timeout_honoured(server, fetch, route):
    # The run is killed (and the test fails) at 20 s, below the default timeout of 30 s: a timedOut
    # answer within it is --timeout's. A hang bound, not a speed verdict.
    res = fetch("--timeout", "2", server.url(route), timeout=20)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "timedOut", None, res)
    assert res.one["error"]["message"] == "Metadata fetch timed out."


def test_endless_head_is_capped(server, fetch):
    res = fetch("--no-subresources", server.url("/hugehead"), timeout=60)
    assert res.max_rss_kb <= RSS_LIMIT_KB, f"peak RSS {res.max_rss_kb} KB"
    assert res.returncode == 0, "the byte cap means: use what was read, mark truncated\n" + res.describe()
    m = res.one
    assert m["title"] == "Endless Head"
    assert m.get("truncated") is True
    assert m["bytesRead"] <= 2 * MiB + SLACK


def test_gzip_bomb_is_capped(server, fetch):
    """A body that inflates to 1 GiB is a page past the byte cap like any other (DESIGN: reaching the cap
    means use what was read and mark it truncated, not fail): exit 0, the head's title, at most the cap read."""
    res = fetch("--no-subresources", server.url("/gzipbomb"), timeout=90)
    assert res.max_rss_kb <= RSS_LIMIT_KB, f"peak RSS {res.max_rss_kb} KB"
    assert res.returncode == 0, res.describe()
    m = res.one
    assert "error" not in m, res.describe()
    assert m["title"] == "bomb", res.describe()
    assert m.get("truncated") is True, res.describe()
    assert 2 * MiB - SLACK <= m["bytesRead"] <= 2 * MiB + SLACK, res.describe()


def test_3mb_page_reads_only_the_head(server, fetch):
    res = fetch("--no-subresources", server.url("/big3mb"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "Big Page"
    assert m["summary"] == "A page with a 3 MB body."
    assert m["image"]["url"] == server.url("/img/big.png?w=40&h=20")
    assert m["bytesRead"] <= len(BIG3MB_HEAD) + READ + SLACK, f"bytesRead={m['bytesRead']}"
    assert not m.get("truncated")


@pytest.mark.parametrize("n,kind", [(10, "meta"), (60, "meta"), (150, "meta"), (150, "link")])
def test_head_with_many_tags_reads_only_the_head(server, fetch, n, kind):
    """Real heads carry dozens of <meta>/<link> tags before og:*; the body must still be skipped."""
    res = fetch("--no-subresources", server.url(f"/manytags?n={n}&kind={kind}"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "Many Tags"
    assert m["image"]["url"] == server.url("/img/m.png")
    unit = 121 if kind == "meta" else 55
    head_len = 50 + unit * n + 140
    assert m["bytesRead"] <= head_len + READ + SLACK, f"bytesRead={m['bytesRead']} for a head of ~{head_len} bytes"


def test_late_meta_within_64k_found(server, fetch):
    res = fetch("--no-subresources", server.url("/late-meta?at=20000"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m.get("title") == "Late Title"
    assert m["bytesRead"] <= len(LATE_HEAD) + READ + SLACK, f"bytesRead={m['bytesRead']}"


def test_late_meta_beyond_64k_not_found(server, fetch):
    res = fetch("--no-subresources", server.url("/late-meta?at=200000"))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m.get("title") != "Late Title"
    assert m["bytesRead"] <= len(LATE_HEAD) + READ + SLACK, f"bytesRead={m['bytesRead']}"


# ------------------------------------------------------------------ several URLs, --stdin, flags

def test_several_urls_in_input_order_and_exit_1(server, fetch):
    urls = [server.url("/slow?ms=900&title=first"), "ftp://x/", server.url("/slow?ms=100&title=third"),
            server.url("/status/404?x=order")]
    res = fetch("--no-subresources", *urls, timeout=30)
    assert res.returncode == 1, res.describe()
    assert [o["originalURL"] for o in res.objects] == urls
    assert res.objects[0]["title"] == "first"
    assert_error(res.objects[1], "failed", "unsupportedScheme", res)
    assert res.objects[2]["title"] == "third"
    assert_error(res.objects[3], "failed", "httpStatus", res)


def test_stdin_mode(server, run_cli):
    # The server holds each page until all five are in flight at once (a page that waited alone for 20 s
    # has the title "gate timed out"), then answers them in another order than asked.
    key = f"stdin-{time.monotonic_ns()}"
    urls = [server.url(f"/gate?key={key}&n=5&ms={ms}&title=s{i}") for i, ms in enumerate([800, 400, 10, 600, 200])]
    res = run_cli("fetch", "--stdin", "--allow-private-network", "--no-subresources", "--concurrency", "5",
                  stdin="\n".join(urls) + "\n", timeout=60)
    assert res.returncode == 0, res.describe()
    assert [o["originalURL"] for o in res.objects] == urls
    assert [o["title"] for o in res.objects] == [f"s{i}" for i in range(5)], "fetches did not overlap"
    assert server.peak_in_flight(key) == 5


def test_concurrency_runs_in_parallel(server, fetch):
    # Twelve pages on one host at --concurrency 12: as many at once as the per-host limit lets (six).
    key = f"par-{time.monotonic_ns()}"
    urls = [server.url(f"/slow?ms=2000&title=c{i}&key={key}") for i in range(12)]
    res = fetch("--no-subresources", "--concurrency", "12", *urls, timeout=60)
    assert res.returncode == 0, res.describe()
    assert [o["title"] for o in res.objects] == [f"c{i}" for i in range(12)]
    assert server.peak_in_flight(key) == 6, f"{server.peak_in_flight(key)} pages in flight at once"


def test_per_host_limit_holds_across_curl_threads(server, fetch):
    # Six transfers per host in all, however many curl threads share them: the
    # seventh page waits for a slot. Counted by the server, not timed.
    key = f"host-{time.monotonic_ns()}"
    urls = [server.url(f"/slow?ms=2000&title=h{i}&key={key}") for i in range(7)]
    res = fetch("--no-subresources", "--concurrency", "7", *urls, timeout=60)
    assert res.returncode == 0, res.describe()
    assert [o["title"] for o in res.objects] == [f"h{i}" for i in range(7)]
    assert server.peak_in_flight(key) == 6, f"{server.peak_in_flight(key)} pages on one host in flight at once"


def test_all_ok_exit_0(server, fetch):
    res = fetch("--no-subresources", server.url("/page?title=a"), server.url("/html"))
    assert res.returncode == 0, res.describe()
    assert len(res.objects) == 2


def test_pretty_output(server, run_cli):
    res = run_cli("fetch", "--pretty", "--allow-private-network", "--no-subresources", server.url("/page?title=p"),
                  parse=False)
    assert res.returncode == 0, res.describe()
    assert "\n  " in res.stdout.strip(), "not indented"
    obj = json.loads(res.stdout)
    assert obj["title"] == "p"


def test_printed_line_is_the_cached_json(server, run_cli, tmp_path):
    # A fetched preview's line is the JSON its cache entry stores, with
    # "fromCache" false, byte for byte; --pretty indents the same bytes; a
    # later fetch served from the cache prints the stored bytes as they are.
    import sqlite3
    cache = tmp_path / "cache"
    urls = [server.url("/page?title=" + urllib.parse.quote('A "quoted" / <title> \u00e9\u2028')),
            server.url("/html")]
    args = ["fetch", "--allow-private-network", "--no-subresources", "--cache-dir", str(cache)]
    res = run_cli(*args, *urls, parse=False)
    assert res.returncode == 0, res.describe()
    lines = res.stdout.encode().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 3, res.describe()
    db = sqlite3.connect(cache / "cache.sqlite")
    rows = {url: bytes(body) for url, body in db.execute("SELECT originalURL, body FROM entry WHERE isFailure = 0")}
    db.close()
    assert sorted(rows) == sorted(urls)
    for url, line in zip(urls, lines):
        assert b'"fromCache":true' in rows[url]
        assert line == rows[url].replace(b'"fromCache":true', b'"fromCache":false', 1), url
    pretty = run_cli("fetch", "--pretty", *args[1:], "--cache-policy", "reload", urls[0], parse=False)
    assert pretty.returncode == 0, pretty.describe()
    compact = json.loads(lines[0])
    shown = json.loads(pretty.stdout)
    assert "\n  " in pretty.stdout.strip() and list(shown) == list(compact)
    assert {k: v for k, v in shown.items() if k not in ("fetchedAt", "expiresAt")} == \
        {k: v for k, v in compact.items() if k not in ("fetchedAt", "expiresAt")}
    hit = run_cli(*args, urls[1], parse=False)
    db = sqlite3.connect(cache / "cache.sqlite")
    (stored,) = db.execute("SELECT body FROM entry WHERE originalURL = ?", (urls[1],)).fetchone()
    db.close()
    assert hit.stdout.encode() == bytes(stored) + b"\n", hit.describe()


@pytest.mark.parametrize("args", [["fetch"], ["fetch", "--timeout", "abc", "http://x/"],
                                  ["fetch", "--no-such-flag", "http://x/"], ["no-such-command"],
                                  ["fetch", "--concurrency", "0", "http://x/"]])
def test_usage_errors_exit_2(run_cli, args):
    res = run_cli(*args, parse=False, timeout=30)
    assert res.returncode == 2, res.describe()
    # A usage error goes to stderr only: nothing on stdout, where a script reads results.
    assert res.stdout == "", "usage error printed on stdout\n" + res.describe()
    assert res.stderr.strip(), res.describe()


def test_help_and_version(run_cli):
    res = run_cli("--help", parse=False)
    assert res.returncode == 0 and "fetch" in res.stdout, res.describe()
    res = run_cli("fetch", "--help", parse=False)
    assert res.returncode == 0 and "--allow-private-network" in res.stdout, res.describe()
    res = run_cli("--version", parse=False)
    assert res.returncode == 0 and res.stdout.strip(), res.describe()


# ------------------------------------------------------------------ parse

PARSE_HTML = """<html><head><meta charset="utf-8"><title>Parsed</title>
<meta property="og:image" content="img/a.png"><link rel="icon" href="/fav.png">
<meta property="og:description" content="From a file"></head><body></body></html>"""


def test_parse_file(server, run_cli, tmp_path):
    f = tmp_path / "page.html"
    f.write_text(PARSE_HTML)
    before = server.total_hits()
    res = run_cli("parse", "--url", server.url("/docs/page.html"), str(f))
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "Parsed"
    assert m["summary"] == "From a file"
    assert m["image"]["url"] == server.url("/docs/img/a.png")
    assert m["icon"]["url"] == server.url("/fav.png")
    assert server.total_hits() == before, "parse touched the network"


def test_parse_stdin(run_cli):
    res = run_cli("parse", "--url", "https://example.com/a/b", stdin=PARSE_HTML)
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "Parsed"
    assert m["image"]["url"] == "https://example.com/a/img/a.png"


@pytest.mark.parametrize("case", ["sjis-meta", "cp1251-http-equiv", "utf16le-bom"])
def test_parse_sniffs_encoding_from_bytes(run_cli, case):
    from fixture_server import encoding_page
    body, _ = encoding_page(case)
    res = run_cli("parse", "--url", "https://example.com/", stdin=body)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == ENCODING_CASES[case][1]


def test_parse_missing_file_is_an_error(run_cli, tmp_path):
    missing = tmp_path / "missing.html"
    res = run_cli("parse", "--url", "https://example.com/", str(missing), parse=False)
    assert res.returncode == 66, res.describe()
    assert res.stdout == "", "stdout carries results only"
    assert f"cannot read {missing}: No such file or directory" in res.stderr, res.describe()


def test_progress_line_on_a_terminal(linkpeek_bin, server, tmp_path):
    """With several URLs and stderr on a terminal (a pty), a progress line is drawn on stderr (carriage return,
    erase line), ends with every URL done and is erased; stdout, a pipe, carries the results only."""
    import os
    import pty
    import select
    import subprocess
    import uuid
    u = uuid.uuid4().hex
    urls = [server.url(f"/page?title=p{i}&u={u}") for i in range(3)] + [server.url(f"/status/404?u={u}")]
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([linkpeek_bin, "fetch", "--allow-private-network", "--cache-dir", str(tmp_path / "c"),
                              *urls], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        out, _ = p.communicate(timeout=60)
        err = b""
        while select.select([master], [], [], 0.5)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
    finally:
        os.close(master)
    assert p.returncode == 1
    assert b"\r\x1b[K4 done, 1 failed, 0 running" in err, err
    assert err.endswith(b"\r\x1b[K"), err[-200:]
    assert b"\x1b" not in out and len([l for l in out.splitlines() if l.strip()]) == 4, out


PROGRESS = re.compile(r"\r\x1b\[K(\d+) done, (\d+) failed, (\d+) running")


def test_progress_line_on_a_terminal(linkpeek_bin, server):
    """Several URLs with stderr on a terminal: one line of counts, redrawn in place, rising to the totals,
    and cleared at the end; stdout (a pipe) gets only the JSON lines."""
    u = uuid.uuid4().hex[:8]
    urls = [server.url(f"/page?title=a&u={u}"), server.url(f"/status/404?u={u}"), server.url(f"/page?title=c&u={u}")]
    code, err, out = run_on_tty(
        [linkpeek_bin, "fetch", "--allow-private-network", "--no-subresources", *urls], timeout=60, stream="stderr")
    assert code == 1, (code, out, err)  # one URL failed
    objects = [json.loads(line) for line in out.decode().splitlines()]
    assert [o.get("originalURL", o.get("url")) for o in objects] == urls, out
    assert b"\x1b" not in out, "progress went to stdout"
    counts = [tuple(int(n) for n in m) for m in PROGRESS.findall(err)]
    assert counts, f"no progress line on the terminal: {err!r}"
    assert [c[0] for c in counts] == sorted(c[0] for c in counts), counts
    assert counts[-1] == (3, 1, 0), counts
    assert err.endswith("\r\x1b[K"), f"the line is not cleared at the end: {err[-40:]!r}"
    assert "\n" not in err, f"the progress line scrolled: {err!r}"


def test_no_progress_line_for_one_url_or_off_a_terminal(linkpeek_bin, server, run_cli):
    code, err, out = run_on_tty(
        [linkpeek_bin, "fetch", "--allow-private-network", "--no-subresources", server.url("/page?title=one")],
        timeout=60, stream="stderr")
    assert code == 0 and json.loads(out)["title"] == "one", (out, err)
    assert "\x1b" not in err, err
    res = run_cli("fetch", "--allow-private-network", "--no-subresources",
                  server.url("/page?title=x"), server.url("/page?title=y"))
    assert res.returncode == 0 and [o["title"] for o in res.objects] == ["x", "y"]
    assert "\x1b" not in res.stderr, res.stderr
