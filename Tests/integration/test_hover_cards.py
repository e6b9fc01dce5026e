"""Hover and render cards through the real daemon: only images
linkpeek fetched under its own address policy reach a card, as a small
`data:` thumbnail, never the page's image URL; `richness` says what was
verified; cards in the format the client asks for; Markdown escaped only
where it must be; the host with its port; a refusal that names
`allowPrivateNetwork`; a failing link saved with what is known.

The daemon here is allowed only 127.0.0.1/32 (`--allow-network`), as a user
would allow one network. A second fixture server on 127.0.0.2 counts every
request: the "tracker" that a card must never make the editor (or linkpeek)
contact.
"""

from __future__ import annotations

import base64
import re
from urllib.parse import quote

import pytest

from fixture_server import FixtureServer, png_bytes
from linkpeek_client import LinkPeekError

URI = "file:///notes.md"
ONLY_LOOPBACK_1 = ["--allow-network", "127.0.0.1/32"]
# The card's image line: a thumbnail linkpeek made, as a data: URI.
DATA_IMAGE = re.compile(r"!\[[^\]]*\]\(data:image/jpeg;base64,([A-Za-z0-9+/]+=*)\)")
HOVER_IMAGE_CAP = 24 * 1024
BLOCKED_LINE = "*blocked: private address (set allowPrivateNetwork to allow)*"


@pytest.fixture(scope="module")
def tracker():
    """A server on 127.0.0.2 that serves a real PNG and counts requests."""
    s = FixtureServer(host="127.0.0.2").start()

    def image(h, path, q):
        h.send(200, png_bytes(64, 32), ctype="image/png")

    s.add_route("/tracker.png", image)
    yield s
    s.stop()


def page(title: str, image: str | None = None, extra: str = "") -> bytes:
    meta = f'<meta property="og:image" content="{image}">' if image else ""
    return (f"<!DOCTYPE html><html><head><title>{title}</title>{meta}"
            f'<link rel="icon" href="/img/icon.gif?w=16&amp;h=16">{extra}</head><body>x</body></html>').encode()


@pytest.fixture(scope="module")
def pages(server, tracker):
    refused = {
        "/cards-private": "http://192.168.1.1/x.png",
        "/cards-link-local": "http://169.254.169.254/latest/meta-data/iam.png",
        "/cards-tracker": f"http://127.0.0.2:{tracker.port}/tracker.png?user=alice",
    }
    for path, image in refused.items():
        server.add_route(path, lambda h, p, q, image=image: h.send(200, page("Refused image", image)))
    server.add_route("/cards-allowed", lambda h, p, q: h.send(
        200, page("Allowed image", f"{h.base}/img/og.png?w=1200&amp;h=630")))
    server.add_route("/cards-escapes", lambda h, p, q: h.send(200, page(
        "Dev_Notes: 50% off! [draft]", extra=(
            '<meta property="og:site_name" content="Snake_Case Weekly">'
            '<meta property="og:description" content="- A list of snake_case tips &amp; tricks: *one*, *two* and [more]">'))))
    server.refused = refused
    return server


@pytest.fixture
def daemon(make_client):
    """A daemon that may reach 127.0.0.1 only (not 127.0.0.2, not private ranges)."""
    return lambda **kw: make_client(private=False, args=ONLY_LOOPBACK_1, timeout=20, **kw)


def hover_card(c, url: str, kind: str = "markdown") -> str:
    """The full card of `url`: hovers until it is no longer loading (bounded)."""
    c.did_open(URI, f"see {url}\n")
    for _ in range(40):
        result = c.hover(URI, 0, 6)
        assert result is not None, "expected a hover card"
        assert result["contents"]["kind"] == kind, result
        value = result["contents"]["value"]
        if "loading…" not in value:
            return value
        c.did_close(URI)
        c.did_open(URI, f"see {url}\n")
    pytest.fail(f"{url} still loading: {value}")


@pytest.mark.parametrize("path", ["/cards-private", "/cards-link-local", "/cards-tracker"])
def test_a_refused_image_gives_no_image_line_and_no_request(daemon, pages, tracker, path):
    c = daemon()
    url = pages.url(path)
    image = pages.refused[path]
    image_host = image.split("/")[2].split(":")[0]
    tracker.reset_hits()
    value = hover_card(c, url)
    assert value == f"**Refused image**\n\n127.0.0.1:{pages.port}", value
    assert image_host not in value and "![" not in value and "data:" not in value, value
    # The JSON says what was verified: the icon was fetched, the image was not.
    metadata = c.fetch(url)
    assert metadata["image"]["url"] == image
    assert "bytes" not in metadata["image"], metadata["image"]
    assert metadata["icon"]["bytes"] > 0
    assert metadata["richness"] == "icon", metadata
    # render, in both formats that can embed an image, neither.
    for fmt in ("markdown", "html"):
        text = c.render(fmt, url=url)
        assert image_host not in text and "<img" not in text and "![" not in text, text
    # Nothing reached the server on 127.0.0.2 (for the tracker case: it was the image's host).
    assert tracker.total_hits() == 0


def test_metadata_given_to_render_cannot_make_linkpeek_fetch_a_refused_image(daemon, tracker):
    c = daemon()
    tracker.reset_hits()
    image = tracker.url("/tracker.png?user=alice")
    metadata = {"originalURL": "https://example.com/", "title": "Given", "image": {"url": image, "bytes": 2048}}
    for fmt in ("markdown", "html"):
        text = c.render(fmt, metadata=metadata)
        assert "127.0.0.2" not in text and "data:" not in text, text
    assert c.render("markdown", metadata=metadata) == "**Given**\n\nexample.com"
    assert tracker.total_hits() == 0


def test_an_allowed_image_is_a_small_data_thumbnail(daemon, pages):
    c = daemon()
    url = pages.url("/cards-allowed")
    value = hover_card(c, url)
    head, image_line = value.rsplit("\n\n", 1)
    assert head == f"**Allowed image**\n\n127.0.0.1:{pages.port}", value
    match = DATA_IMAGE.fullmatch(image_line)
    assert match, value
    jpeg = base64.b64decode(match.group(1), validate=True)
    assert jpeg[:3] == b"\xff\xd8\xff" and len(jpeg) <= HOVER_IMAGE_CAP, len(jpeg)
    assert "/img/og.png" not in value
    assert c.fetch(url)["richness"] == "image"
    # The same thumbnail in render's Markdown and HTML cards.
    assert match.group(0) in c.render("markdown", url=url)
    assert f'src="data:image/jpeg;base64,{match.group(1)}"' in c.render("html", url=url)


def test_hover_images_off_drops_the_line(daemon, pages):
    c = daemon(init_options={"hoverImages": False})
    assert hover_card(c, pages.url("/cards-allowed")) == f"**Allowed image**\n\n127.0.0.1:{pages.port}"


def test_serve_no_hover_images_beats_initialization_options(make_client, pages):
    # A flag is the user's own word for this run: it beats what the client sends.
    off = make_client(private=False, args=[*ONLY_LOOPBACK_1, "--no-hover-images"], init_options={"hoverImages": True},
                      timeout=20)
    assert off.initialize_result["settings"]["hoverImages"] is False
    assert hover_card(off, pages.url("/cards-allowed")) == f"**Allowed image**\n\n127.0.0.1:{pages.port}"
    on = make_client(private=False, args=ONLY_LOOPBACK_1, init_options={"hoverImages": True}, timeout=20)
    assert on.initialize_result["settings"]["hoverImages"] is True
    assert DATA_IMAGE.search(hover_card(on, pages.url("/cards-allowed")))


def test_a_client_preferring_plain_text_gets_no_markdown(daemon, pages):
    c = daemon(capabilities={"textDocument": {"hover": {"contentFormat": ["plaintext", "markdown"]}}})
    for path in ("/cards-escapes", "/cards-allowed"):
        hover_card(c, pages.url(path), kind="plaintext")  # warms the cache; each answer is plaintext
    assert hover_card(c, pages.url("/cards-escapes"), kind="plaintext") == (
        f"Dev_Notes: 50% off! [draft]\nSnake_Case Weekly · 127.0.0.1:{pages.port}\n"
        "- A list of snake_case tips & tricks: *one*, *two* and [more]")
    # A page with an image: still no image line, no data: URI, no Markdown.
    assert hover_card(c, pages.url("/cards-allowed"), kind="plaintext") == f"Allowed image\n127.0.0.1:{pages.port}"


def test_markdown_is_escaped_only_where_it_would_change_the_text(daemon, pages):
    c = daemon()
    assert hover_card(c, pages.url("/cards-escapes")) == (
        "**Dev_Notes: 50% off! \\[draft]**\n\n"
        f"Snake_Case Weekly · 127.0.0.1:{pages.port}\n\n"
        "\\- A list of snake_case tips & tricks: \\*one\\*, \\*two\\* and \\[more]")


def test_a_redirect_shows_the_final_url_once_and_the_title_is_no_link(daemon, pages):
    c = daemon()
    final = pages.url("/page?title=Moved")
    url = pages.url("/redirect?status=301&to=" + quote(final, safe=""))
    value = hover_card(c, url)
    assert value.startswith("**Moved**\n\n"), value
    assert value.count(final) == 1 and value.endswith("\n\n→ " + final), value
    assert url not in value


def test_a_refused_page_names_the_option_that_allows_it(daemon, tracker):
    c = daemon()
    tracker.reset_hits()
    url = tracker.url("/page")
    assert hover_card(c, url) == f"**127.0.0.2:{tracker.port}**\n\n{BLOCKED_LINE}"
    with pytest.raises(LinkPeekError) as err:
        c.fetch(f"{url}?again=1")
    assert err.value.reason == "blockedAddress"
    assert "allowPrivateNetwork" in str(err.value), str(err.value)
    assert tracker.total_hits() == 0


def test_a_link_whose_page_fails_is_saved_with_what_is_known(daemon, pages, tracker):
    c = daemon()
    refused = tracker.url("/gone")
    saved = c.request("save", {"url": refused, "tags": ["later"], "title": "Read at home"})
    assert saved["title"] == "Read at home" and saved["tags"] == ["later"] and "savedAt" in saved, saved
    assert saved["failure"]["reason"] == "blockedAddress", saved
    assert "allowPrivateNetwork" in saved["failure"]["message"]
    missing = pages.url("/status/404")
    lost = c.request("save", {"url": missing})
    assert lost["failure"] == {"kind": "failed", "reason": "httpStatus", "status": 404,
                               "message": lost["failure"]["message"]}, lost
    assert "title" not in lost
    listed = {m["originalURL"]: m for m in c.saved()}
    assert set(listed) == {refused, missing}, listed
    assert listed[refused]["failure"]["reason"] == "blockedAddress"
    assert listed[refused]["title"] == "Read at home"
    with pytest.raises(LinkPeekError) as err:
        c.request("save", {"url": refused, "title": "a\u0001b"})
    assert (err.value.code, err.value.message) == (-32602, "title must not contain control characters")
    assert tracker.total_hits() == 0


def test_the_cli_saves_a_failing_link_with_its_title(run_cli, tracker, tmp_path):
    refused = tracker.url("/gone")
    res = run_cli("saved", "add", "--cache-dir", str(tmp_path), *ONLY_LOOPBACK_1, "--title", "Read at home", refused)
    assert res.returncode == 0, res.describe()
    saved = res.one
    assert saved["originalURL"] == refused and saved["title"] == "Read at home", saved
    assert saved["failure"]["reason"] == "blockedAddress", saved
    listed = run_cli("saved", "list", "--cache-dir", str(tmp_path))
    assert [m["originalURL"] for m in listed.objects] == [refused], listed.describe()
    bad = run_cli("saved", "add", "--cache-dir", str(tmp_path), "--title", "", refused, parse=False)
    assert bad.returncode == 2 and "--title must have 1 to 2048 characters" in bad.stderr, bad.describe()
    assert tracker.total_hits() == 0
