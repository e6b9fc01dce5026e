"""oEmbed and walls, on loopback only.

Real host names (www.youtube.com, consent.youtube.com) reach a local HTTPS
server signed by a test CA: port 443 of those names goes through a CONNECT
proxy the test runs, which opens the tunnel to the local server (the
address policy still judges the names, mapped with `--resolve` to 127.0.0.1,
before anything reaches the proxy). Other pages use made-up names
(`*.example.test`) over plain HTTP with `--resolve`.
"""

from __future__ import annotations

import contextlib
import re
import http.server
import json
import socket
import ssl
import subprocess
import threading
import time
import urllib.parse
from collections import Counter

import pytest

from background_server import BackgroundServer, respond
from linkpeek_client import LinkPeekError
from proxy_fixture import CountingProxy

LOOPBACK = ["--allow-network", "127.0.0.1/32"]
YOUTUBE_NAMES = ["www.youtube.com", "consent.youtube.com", "x.com", "publish.twitter.com"]


# ------------------------------------------------------------------ a server with routes per test

class Site:
    """Routes by (host, path); counts every request by (host, path) and keeps its query."""

    def __init__(self):
        self.routes = {}
        self.hits = Counter()
        self.queries = []
        self.lock = threading.Lock()

    def route(self, host, path, fn):
        self.routes[(host, path)] = fn

    def count(self, host, path):
        with self.lock:
            return self.hits[(host, path)]


def make_handler(site: Site):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            host = (self.headers.get("Host") or "").split(":")[0]
            parts = urllib.parse.urlsplit(self.path)
            with site.lock:
                site.hits[(host, parts.path)] += 1
                site.queries.append((host, parts.path, parts.query))
            fn = site.routes.get((host, parts.path))
            if fn is None:
                return self.send(404, b"<title>not found</title>")
            fn(self, urllib.parse.parse_qs(parts.query))

        send = respond

    return Handler


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request, client_address):
        pass  # a client that went away (a refused oversized answer) is expected here


@pytest.fixture
def plain():
    """A plain HTTP site on 127.0.0.1 for made-up names."""
    site = Site()
    httpd = Server(("127.0.0.1", 0), make_handler(site))
    with BackgroundServer(httpd) as bg:
        site.port = bg.port
        yield site


@pytest.fixture(scope="module")
def ca(tmp_path_factory):
    from tls_fixture import TestCA
    ca = TestCA(tmp_path_factory.mktemp("web-ca"))
    ca.leaf = ca.issue(YOUTUBE_NAMES + ["site.example.test"])
    return ca


class TunnelProxy(CountingProxy):
    """A CONNECT proxy that opens every tunnel to one local port, whatever port was asked."""

    def __init__(self, port):
        super().__init__()
        self.target_port = port

    def connect(self, host, port):
        return socket.create_connection(("127.0.0.1", self.target_port), timeout=10)


@contextlib.contextmanager
def https_names(ca, names, handler):
    """An HTTPS server for `names` on port 443 (signed by `ca`), reached through a
    tunnel proxy; yields the flags that route those names to it."""
    httpd = Server(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(ca.leaf[0]), str(ca.leaf[1]))
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    with BackgroundServer(httpd) as bg:
        proxy = TunnelProxy(bg.port).start()
        try:
            yield ["--proxy", proxy.url(), "--cacert", str(ca.cert), *LOOPBACK,
                   *[a for name in names for a in ("--resolve", f"{name}:443:127.0.0.1")]]
        finally:
            proxy.stop()


@pytest.fixture
def youtube(ca):
    """An HTTPS site for www.youtube.com and consent.youtube.com on port 443, through a tunnel proxy."""
    site = Site()
    with https_names(ca, YOUTUBE_NAMES, make_handler(site)) as args:
        site.args = args
        yield site


def plain_args(site, *names):
    return [*LOOPBACK, *[a for n in names for a in ("--resolve", f"{n}:{site.port}:127.0.0.1")]]


def page(*, title=None, og_title=None, extra="", body=""):
    head = ""
    if title is not None:
        head += f"<title>{title}</title>"
    if og_title is not None:
        head += f'<meta property="og:title" content="{og_title}">'
    return f"<!doctype html><html><head>{head}{extra}</head><body>{body}</body></html>".encode()


OEMBED = {
    "type": "video", "version": "1.0",
    "title": "A <b>video</b> & its title",
    "author_name": "Some Channel", "author_url": "https://www.youtube.com/@somechannel",
    "provider_name": "YouTube", "provider_url": "https://www.youtube.com/",
    "thumbnail_url": "https://i.ytimg.com/vi/abc/hqdefault.jpg", "thumbnail_width": 480, "thumbnail_height": "360",
    "width": 200, "height": 113,
    "html": '<iframe width="200" height="113" src="https://www.youtube.com/embed/abc?feature=oembed" '
            'frameborder="0" allowfullscreen></iframe>',
}


def answer_json(obj, headers=()):
    return lambda h, q: h.send(200, json.dumps(obj).encode(), "application/json", headers)


CONSENT_PAGE = page(title="Before you continue to YouTube",
                    body='<form action="/save" method="POST"><button>Accept all</button></form>')


def consent_routes(site, host="www.youtube.com", consent_host="consent.youtube.com"):
    site.route(host, "/watch", lambda h, q: h.send(
        302, b"", headers=[("Location", f"https://{consent_host}/ml?continue=https://{host}/watch")]))
    site.route(consent_host, "/ml", lambda h, q: h.send(200, CONSENT_PAGE))


def run(run_cli, *args, timeout=60):
    return run_cli("fetch", "--no-subresources", *args, timeout=timeout)


# ------------------------------------------------------------------ the provider list (part 1)

def test_youtube_behind_a_consent_redirect_previews_from_its_oembed(youtube, run_cli):
    consent_routes(youtube)
    youtube.route("www.youtube.com", "/oembed", answer_json(OEMBED))
    url = "https://www.youtube.com/watch?v=abc&t=1"
    res = run(run_cli, *youtube.args, url)
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "A <b>video</b> & its title"
    assert m["author"] == "Some Channel" and m["authorURL"] == "https://www.youtube.com/@somechannel"
    assert m["siteName"] == "YouTube"
    assert m["image"] == {"url": "https://i.ytimg.com/vi/abc/hqdefault.jpg", "width": 480, "height": 360}
    assert m["video"] == {"url": "https://www.youtube.com/embed/abc?feature=oembed", "type": "text/html",
                          "width": 200, "height": 113}
    assert "remoteVideoURL" not in m
    for field in ("title", "author", "siteName", "image", "video"):
        assert m["sources"][field] == "oembed", m["sources"]
    assert "continue" not in res.stdout.lower() and "<iframe" not in res.stdout
    # The provider list needs no page: the watch page (and its wall) was never asked for.
    assert youtube.count("www.youtube.com", "/watch") == 0
    assert youtube.count("consent.youtube.com", "/ml") == 0
    [(_, _, query)] = [q for q in youtube.queries if q[1] == "/oembed"]
    assert urllib.parse.parse_qs(query) == {"url": [url], "format": ["json"]}


def test_when_the_provider_fails_the_page_is_read_and_its_consent_wall_is_blocked(youtube, run_cli):
    consent_routes(youtube)
    youtube.route("www.youtube.com", "/oembed", lambda h, q: h.send(404, b"Not Found", "text/plain"))
    res = run(run_cli, *youtube.args, "https://www.youtube.com/watch?v=abc")
    assert res.returncode == 1, res.describe()
    err = res.one["error"]
    assert (err["reason"], err["wall"]) == ("blocked", "consent"), res.describe()
    assert err["message"] == "Metadata fetch failed: the site asked for cookie consent before showing the page."
    assert "Before you continue" not in res.stdout
    assert youtube.count("www.youtube.com", "/oembed") == 1 and youtube.count("consent.youtube.com", "/ml") == 1


X_ANSWER = {"type": "rich", "version": "1.0", "author_name": "Someone", "author_url": "https://x.com/someone",
            "provider_name": "X", "html": '<blockquote class="twitter-tweet"><p>The post</p></blockquote>'
                                           '<script async src="https://platform.twitter.com/widgets.js"></script>'}


def test_a_provider_answer_without_a_title_fills_the_page(youtube, run_cli):
    youtube.route("publish.twitter.com", "/oembed", answer_json(X_ANSWER))
    youtube.route("x.com", "/someone/status/1", lambda h, q: h.send(
        200, page(title="X", og_title="Someone on X: &quot;The post&quot;", extra='<meta property="og:site_name" content="X (formerly Twitter)">')))
    res = run(run_cli, *youtube.args, "https://x.com/someone/status/1")
    assert res.returncode == 0, res.describe()
    m = res.one
    assert (m["title"], m["sources"]["title"]) == ('Someone on X: "The post"', "og:title")
    assert (m["siteName"], m["sources"]["siteName"]) == ("X (formerly Twitter)", "og:site_name")
    assert (m["author"], m["authorURL"], m["sources"]["author"]) == ("Someone", "https://x.com/someone", "oembed")
    assert "<script" not in res.stdout and "blockquote" not in res.stdout and "video" not in m


def test_a_provider_answer_without_a_title_stands_in_for_a_walled_page(youtube, run_cli):
    youtube.route("publish.twitter.com", "/oembed", answer_json(X_ANSWER))
    youtube.route("x.com", "/someone/status/2", lambda h, q: h.send(
        302, b"", headers=[("Location", "https://x.com/i/flow/login?redirect_after_login=%2Fsomeone%2Fstatus%2F2")]))
    youtube.route("x.com", "/i/flow/login", lambda h, q: h.send(200, page(title="Log in to X")))
    res = run(run_cli, *youtube.args, "https://x.com/someone/status/2")
    assert res.returncode == 0, res.describe()
    m = res.one
    assert (m["author"], m["siteName"]) == ("Someone", "X") and "title" not in m
    assert "Log in" not in res.stdout


def test_no_oembed_turns_the_provider_list_off(youtube, run_cli):
    consent_routes(youtube)
    youtube.route("www.youtube.com", "/oembed", answer_json(OEMBED))
    res = run(run_cli, *youtube.args, "--no-oembed", "https://www.youtube.com/watch?v=abc")
    assert res.returncode == 1, res.describe()
    assert res.one["error"]["wall"] == "consent"
    assert youtube.count("www.youtube.com", "/oembed") == 0


# ------------------------------------------------------------------ discovery and the merge (part 1)

def discovery_link(href, rel="alternate"):
    return f'<link rel="{rel}" type="application/json+oembed" href="{href}" title="oEmbed">'


@pytest.mark.parametrize("rel", ["alternate", "alternative"])
def test_a_shell_page_is_filled_from_its_discovered_oembed(plain, run_cli, rel):
    plain.route("v.example.test", "/v/1", lambda h, q: h.send(
        200, page(extra=discovery_link("/api/oembed?url=x", rel), body="<div id=app></div>")))
    plain.route("v.example.test", "/api/oembed", answer_json({**OEMBED, "provider_name": "V"}))
    res = run(run_cli, *plain_args(plain, "v.example.test"), f"http://v.example.test:{plain.port}/v/1")
    assert res.returncode == 0, res.describe()
    m = res.one
    assert (m["title"], m["author"], m["siteName"]) == ("A <b>video</b> & its title", "Some Channel", "V")
    assert m["image"]["url"] == "https://i.ytimg.com/vi/abc/hqdefault.jpg"
    assert m["sources"]["title"] == "oembed" and m["richness"] == "video"


def test_the_pages_own_og_title_wins_over_oembed(plain, run_cli):
    plain.route("v.example.test", "/v/2", lambda h, q: h.send(
        200, page(title="Plain", og_title="The page's own title", extra=discovery_link("/api/oembed"))))
    plain.route("v.example.test", "/api/oembed", answer_json(OEMBED))
    res = run(run_cli, *plain_args(plain, "v.example.test"), f"http://v.example.test:{plain.port}/v/2")
    m = res.one
    assert m["title"] == "The page's own title" and m["sources"]["title"] == "og:title"
    assert m["author"] == "Some Channel" and m["sources"]["author"] == "oembed"


def test_discovery_in_the_link_header(plain, run_cli):
    link = (f'<http://v.example.test:{plain.port}/other>; rel="stylesheet", '
            f'<http://v.example.test:{plain.port}/api/oembed?id=3>; rel="alternate"; type="application/json+oembed"')
    plain.route("v.example.test", "/v/3", lambda h, q: h.send(200, page(), headers=[("Link", link)]))
    plain.route("v.example.test", "/api/oembed", answer_json(OEMBED))
    res = run(run_cli, *plain_args(plain, "v.example.test"), f"http://v.example.test:{plain.port}/v/3")
    assert res.one["title"] == "A <b>video</b> & its title"
    assert plain.count("v.example.test", "/other") == 0


def test_discovery_is_off_with_initialization_options(plain, make_client):
    plain.route("v.example.test", "/v/4", lambda h, q: h.send(200, page(title="Shell", extra=discovery_link("/api/oembed"))))
    plain.route("v.example.test", "/api/oembed", answer_json(OEMBED))
    c = make_client(private=False, args=plain_args(plain, "v.example.test"), init_options={"oembed": False})
    m = c.fetch(f"http://v.example.test:{plain.port}/v/4", fetch_subresources=False)
    assert m["title"] == "Shell" and "author" not in m
    assert plain.count("v.example.test", "/api/oembed") == 0


@pytest.fixture
def second_loopback():
    """A server on 127.0.0.2, outside the one address the tests allow."""
    site = Site()
    try:
        httpd = Server(("127.0.0.2", 0), make_handler(site))
    except OSError as e:
        pytest.fail(f"cannot listen on 127.0.0.2: {e}")
    with BackgroundServer(httpd) as bg:
        site.port = bg.port
        yield site


@pytest.mark.parametrize("how", ["direct", "redirect"])
def test_discovery_to_a_private_address_is_refused_unsent(plain, second_loopback, run_cli, how):
    private = f"http://127.0.0.2:{second_loopback.port}/oembed"
    second_loopback.route("127.0.0.2", "/oembed", answer_json(OEMBED))
    plain.route("v.example.test", "/hop", lambda h, q: h.send(302, b"", headers=[("Location", private)]))
    href = private if how == "direct" else f"http://v.example.test:{plain.port}/hop"
    plain.route("v.example.test", "/v/5", lambda h, q: h.send(200, page(og_title="Own", extra=discovery_link(href))))
    res = run(run_cli, *plain_args(plain, "v.example.test"), f"http://v.example.test:{plain.port}/v/5")
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "Own" and "author" not in res.one
    assert sum(second_loopback.hits.values()) == 0
    assert plain.count("v.example.test", "/hop") == (1 if how == "redirect" else 0)


def slow_answer(h, q):
    time.sleep(20)
    h.send(200, json.dumps(OEMBED).encode(), "application/json")


def streamed_big(h, q):
    h.send_response(200)
    h.send_header("Content-Type", "application/json")
    h.send_header("Connection", "close")
    h.end_headers()
    try:
        h.wfile.write(b'{"title": "' + b"x" * (5 * 1024 * 1024) + b'"}')
    except OSError:
        pass
    h.close_connection = True


@pytest.mark.parametrize("answer", [
    pytest.param(lambda h, q: h.send(500, b'{"title": "error page"}', "application/json"), id="500"),
    pytest.param(lambda h, q: h.send(200, b'{"title": "' + b"x" * (5 * 1024 * 1024) + b'"}', "application/json"),
                 id="5MB"),
    pytest.param(streamed_big, id="5MB-unannounced"),
    pytest.param(lambda h, q: h.send(200, b'{"title": "broken', "application/json"), id="invalid-json"),
    pytest.param(lambda h, q: h.send(200, b'["a list"]', "application/json"), id="not-an-object"),
    pytest.param(slow_answer, id="20s"),
])
def test_a_bad_oembed_answer_leaves_the_page_standing(plain, run_cli, answer):
    plain.route("v.example.test", "/v/6", lambda h, q: h.send(
        200, page(og_title="Page title", extra=discovery_link("/api/oembed"))))
    plain.route("v.example.test", "/api/oembed", answer)
    # 4 s for the whole fetch: a 20 s answer must be given up on well inside it, else this is timedOut.
    res = run(run_cli, *plain_args(plain, "v.example.test"), "--timeout", "4", f"http://v.example.test:{plain.port}/v/6")
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "Page title" and "oembed" not in m["sources"].values() and "author" not in m
    assert plain.count("v.example.test", "/api/oembed") == 1


# ------------------------------------------------------------------ walls (part 2)

JUST_A_MOMENT = page(title="Just a moment...", body="<noscript>Enable JavaScript and cookies to continue</noscript>")


def test_a_challenge_is_blocked_and_cached_only_briefly(plain, run_cli, tmp_path):
    plain.route("c.example.test", "/a", lambda h, q: h.send(403, JUST_A_MOMENT, headers=[("cf-mitigated", "challenge")]))
    url = f"http://c.example.test:{plain.port}/a"
    args = [*plain_args(plain, "c.example.test"), "--cache-dir", str(tmp_path)]
    res = run(run_cli, *args, url)
    assert res.returncode == 1, res.describe()
    err = res.one["error"]
    assert (err["kind"], err["reason"], err["wall"]) == ("failed", "blocked", "challenge")
    assert "status" not in err
    # Within a minute the failure is answered from the cache; past it the site is asked again.
    again = run(run_cli, *args, url)
    assert again.one["error"]["fromCache"] is True and again.one["error"]["wall"] == "challenge"
    assert plain.count("c.example.test", "/a") == 1
    later = run(run_cli, *args, "--clock-offset", "120", url)
    assert later.one["error"]["wall"] == "challenge" and "fromCache" not in later.one["error"]
    assert plain.count("c.example.test", "/a") == 2
    cached = run_cli("fetch", *args, "--cache-policy", "cacheOnly", "--clock-offset", "120", url)
    assert "title" not in cached.one


@pytest.mark.parametrize("status, body", [
    (503, page(title="Checking", body="<p>Please verify you are human to continue.</p>")),
    (429, page(title="Sorry", body='<form id="f"><div class="g-recaptcha" data-sitekey="k"></div></form>')),
])
def test_an_error_page_that_is_a_bot_check_is_a_challenge(plain, run_cli, status, body):
    plain.route("c.example.test", "/b", lambda h, q: h.send(status, body))
    res = run(run_cli, *plain_args(plain, "c.example.test"), f"http://c.example.test:{plain.port}/b")
    assert res.one["error"]["wall"] == "challenge", res.describe()


def test_a_plain_403_stays_an_http_status(plain, run_cli):
    plain.route("c.example.test", "/c", lambda h, q: h.send(403, page(title="Forbidden", body="<p>No.</p>")))
    res = run(run_cli, *plain_args(plain, "c.example.test"), f"http://c.example.test:{plain.port}/c")
    err = res.one["error"]
    assert (err["reason"], err["status"]) == ("httpStatus", 403) and "wall" not in err


def test_a_consent_redirect_without_oembed_is_blocked(plain, run_cli):
    port = plain.port
    plain.route("news.example.test", "/story", lambda h, q: h.send(
        302, b"", headers=[("Location", f"http://consent.example.test:{port}/?continue=story")]))
    plain.route("consent.example.test", "/", lambda h, q: h.send(200, CONSENT_PAGE))
    res = run(run_cli, *plain_args(plain, "news.example.test", "consent.example.test"),
              f"http://news.example.test:{port}/story")
    err = res.one["error"]
    assert (err["reason"], err["wall"]) == ("blocked", "consent"), res.describe()
    assert "Before you continue" not in res.stdout


@pytest.mark.parametrize("location", ["/accounts/login/?next=/p/1", "/i/flow/login", "/users/sign_in"])
def test_a_login_redirect_is_blocked(plain, run_cli, location):
    plain.route("s.example.test", "/p/1", lambda h, q: h.send(302, b"", headers=[("Location", location)]))
    target = urllib.parse.urlsplit(location).path
    plain.route("s.example.test", target, lambda h, q: h.send(200, page(title="Log in", og_title="Log in to S")))
    res = run(run_cli, *plain_args(plain, "s.example.test"), f"http://s.example.test:{plain.port}/p/1")
    err = res.one["error"]
    assert (err["reason"], err["wall"]) == ("blocked", "login"), res.describe()
    assert err["message"] == "Metadata fetch failed: the site asked to sign in before showing the page."


LOGIN_FORM = '<form method="post"><input name="user"><input type="password" name="pw"><button>Go</button></form>'


def test_a_page_whose_only_form_asks_for_a_password_is_a_login_wall(plain, run_cli):
    plain.route("s.example.test", "/p/2", lambda h, q: h.send(200, page(title="Members", body=LOGIN_FORM)))
    res = run(run_cli, *plain_args(plain, "s.example.test"), f"http://s.example.test:{plain.port}/p/2")
    assert res.one["error"]["wall"] == "login", res.describe()


def test_a_sign_in_url_and_a_page_that_describes_itself_are_previews(plain, run_cli):
    plain.route("s.example.test", "/login", lambda h, q: h.send(200, page(title="Sign in", body=LOGIN_FORM)))
    plain.route("s.example.test", "/p/3", lambda h, q: h.send(
        200, page(title="Post", og_title="A post", body="<p>Text</p>" + LOGIN_FORM)))
    res = run(run_cli, *plain_args(plain, "s.example.test"),
              f"http://s.example.test:{plain.port}/login", f"http://s.example.test:{plain.port}/p/3")
    assert [o.get("title") for o in res.objects] == ["Sign in", "A post"], res.describe()


def test_a_wall_falls_back_to_the_oembed_its_response_names(youtube, run_cli):
    link = '<https://site.example.test/oembed?id=9>; rel="alternate"; type="application/json+oembed"'
    youtube.route("site.example.test", "/post/9", lambda h, q: h.send(
        403, JUST_A_MOMENT, headers=[("cf-mitigated", "challenge"), ("Link", link)]))
    youtube.route("site.example.test", "/oembed", answer_json({"type": "rich", "title": "Post nine",
                                                                 "author_name": "Ann", "html": "<blockquote>x</blockquote>"}))
    res = run(run_cli, *youtube.args, "--resolve", "site.example.test:443:127.0.0.1", "https://site.example.test/post/9")
    assert res.returncode == 0, res.describe()
    m = res.one
    assert (m["title"], m["author"], m["sources"]["title"]) == ("Post nine", "Ann", "oembed")
    assert "video" not in m  # a blockquote embed is no player page


def test_cards_say_why(plain, run_cli):
    plain.route("c.example.test", "/d", lambda h, q: h.send(403, JUST_A_MOMENT, headers=[("cf-mitigated", "challenge")]))
    res = run_cli("fetch", "--no-subresources", "--format", "text", *plain_args(plain, "c.example.test"),
                  f"http://c.example.test:{plain.port}/d", parse=False)
    assert "blocked: bot check" in res.stdout, res.describe()


def test_the_daemon_reports_the_wall_in_error_data(plain, make_client):
    plain.route("c.example.test", "/e", lambda h, q: h.send(403, JUST_A_MOMENT, headers=[("cf-mitigated", "challenge")]))
    c = make_client(private=False, args=plain_args(plain, "c.example.test"))
    with pytest.raises(LinkPeekError) as e:
        c.fetch(f"http://c.example.test:{plain.port}/e", fetch_subresources=False)
    assert e.value.code == -32000
    assert e.value.data == {"kind": "failed", "reason": "blocked", "wall": "challenge"}
    assert "bot check" in e.value.message
    assert e.value.wall == "challenge"
    assert e.value.sentence() == "The site answered with a bot check instead of the page."


@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_oembed_strings_are_escaped_in_cards(plain, run_cli, fmt):
    plain.route("v.example.test", "/v/7", lambda h, q: h.send(200, page(extra=discovery_link("/api/oembed"))))
    plain.route("v.example.test", "/api/oembed", answer_json({**OEMBED, "author_name": "<script>x()</script>"}))
    res = run_cli("fetch", "--no-subresources", "--format", fmt, *plain_args(plain, "v.example.test"),
                  f"http://v.example.test:{plain.port}/v/7", parse=False)
    assert res.returncode == 0, res.describe()
    assert "video" in res.stdout and "its title" in res.stdout, res.describe()
    # HTML cards escape as entities; Markdown cards with a backslash before each '<' (a tag never reaches the renderer).
    for tag in ("<b>", "<script", "<iframe"):
        assert re.search(r"(?<!\\)" + re.escape(tag), res.stdout) is None, res.describe()
    if fmt == "markdown":
        assert "\\<b>video\\</b>" in res.stdout, res.describe()


def test_a_login_form_that_arrives_after_the_head_is_still_seen(plain, run_cli):
    def trickle(h, q):
        head = b"<!doctype html><html><head><title>Members</title>" + b"<meta name=x content=y>" * 400 + b"</head><body>"
        rest = b"<p>" + b"filler " * 3000 + b"</p>" + LOGIN_FORM.encode() + b"</body></html>"
        h.send_response(200)
        h.send_header("Content-Type", "text/html; charset=utf-8")
        h.send_header("Content-Length", str(len(head) + len(rest)))
        h.end_headers()
        h.wfile.write(head)
        h.wfile.flush()
        time.sleep(0.3)
        h.wfile.write(rest)
    plain.route("s.example.test", "/p/4", trickle)
    res = run(run_cli, *plain_args(plain, "s.example.test"), f"http://s.example.test:{plain.port}/p/4")
    assert res.one["error"]["wall"] == "login", res.describe()


def test_a_redirect_through_a_consent_host_back_to_the_content_is_the_page(plain, run_cli):
    port = plain.port
    plain.route("news.example.test", "/story2", lambda h, q: h.send(
        302, b"", headers=[("Location", f"http://consent.example.test:{port}/set?continue=story2")])
        if "c" not in q else h.send(200, page(title="The story")))
    plain.route("consent.example.test", "/set", lambda h, q: h.send(
        302, b"", headers=[("Location", f"http://news.example.test:{port}/story2?c=1")]))
    res = run(run_cli, *plain_args(plain, "news.example.test", "consent.example.test"),
              f"http://news.example.test:{port}/story2")
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "The story" and len(res.one["redirects"]) == 2
