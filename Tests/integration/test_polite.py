"""Issue 19 parts 3-5: meta refresh redirects, the user's language, and
politeness to hosts (Retry-After, prefetch spacing).

Every server here is started by the test on 127.0.0.1 (one on 127.0.0.2, to
prove it is never asked) and stopped at the end; each one records what it was
asked, with which headers, and how many requests it had in flight at once.
"""

from __future__ import annotations

import email.utils
import html
import http.server
import os
import subprocess
import threading
import time

import pytest

from conftest import assert_error
from linkpeek_client import LinkPeekError


class Recorder(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str, routes: dict):
        super().__init__((host, 0), _Handler)
        self.routes = routes
        self.lock = threading.Lock()
        self.hits: list[tuple[str, dict]] = []  # (path, headers)
        self.in_flight = 0
        self.max_in_flight = 0
        self.delay = 0.0
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()
        self.thread.join(timeout=10)

    def url(self, path: str) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}{path}"

    def paths(self) -> list[str]:
        with self.lock:
            return [p for p, _ in self.hits]


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        server: Recorder = self.server  # type: ignore[assignment]
        with server.lock:
            server.hits.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
            server.in_flight += 1
            server.max_in_flight = max(server.max_in_flight, server.in_flight)
        try:
            if server.delay:
                time.sleep(server.delay)
            route = server.routes.get(self.path.split("?")[0])
            status, headers, body = route(self) if route else (404, {}, b"<title>nothing here</title>")
            self.send_response(status)
            headers = {"Content-Type": "text/html; charset=utf-8", **headers}
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        finally:
            with server.lock:
                server.in_flight -= 1


def page(title: str, extra: str = "") -> tuple[int, dict, bytes]:
    return 200, {}, (f"<!doctype html><html><head><title>{title}</title>"
                     f'<meta property="og:title" content="{title}">{extra}</head><body><p>{title}</p></body></html>').encode()


def bare_refresh(content: str, title: str | None = None) -> tuple[int, dict, bytes]:
    head = f"<title>{title}</title>" if title is not None else ""
    return 200, {}, (f'<html><head>{head}<meta http-equiv="refresh" content="{html.escape(content)}">'
                     f"</head><body>Redirecting…</body></html>").encode()


def locale_env(**values: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    env.update(values)
    return env


# ---------------------------------------------------------------- meta refresh

def test_refresh_chain_of_three_hops_gives_the_final_page(fetch):
    with Recorder("127.0.0.1", {}) as srv:
        final = srv.url("/final")
        srv.routes.update({
            # A shortener: its title is the target's URL.
            "/s": lambda h: bare_refresh(f"0; url={srv.url('/two')}", title=srv.url("/two")),
            # t.co's shape: the refresh in <noscript>, a script that would do the same.
            "/two": lambda h: (200, {}, b"<head><noscript><META HTTP-EQUIV=refresh CONTENT=\"0;URL='/three'\"></noscript>"
                               b"</head><script>location.replace('/three')</script>"),
            "/three": lambda h: bare_refresh(f' 1 , Url = "{final}" '),
            "/final": lambda h: page("The destination"),
        })
        res = fetch(srv.url("/s"), "--no-subresources")
        m = res.one
        assert m.get("title") == "The destination", res.describe()
        assert m["url"] == final and m["originalURL"] == srv.url("/s")
        assert m["redirects"] == [{"url": srv.url("/s"), "status": "refresh"},
                                  {"url": srv.url("/two"), "status": "refresh"},
                                  {"url": srv.url("/three"), "status": "refresh"}]
        assert srv.paths() == ["/s", "/two", "/three", "/final"]


def test_refresh_and_http_redirects_mix_in_order(fetch):
    with Recorder("127.0.0.1", {}) as srv:
        srv.routes.update({
            "/a": lambda h: (302, {"Location": "/b"}, b""),
            "/b": lambda h: bare_refresh("0; url=/c"),
            "/c": lambda h: page("C"),
        })
        m = fetch(srv.url("/a"), "--no-subresources").one
        assert m["title"] == "C"
        assert m["redirects"] == [{"url": srv.url("/a"), "status": 302}, {"url": srv.url("/b"), "status": "refresh"}]


def test_refresh_loop_ends_in_too_many_redirects(fetch):
    with Recorder("127.0.0.1", {}) as srv:
        srv.routes.update({
            "/loop-a": lambda h: bare_refresh("0; url=/loop-b"),
            "/loop-b": lambda h: bare_refresh("0; url=/loop-a"),
        })
        res = fetch(srv.url("/loop-a"), "--no-subresources")
        assert_error(res.one, reason="tooManyRedirects", res=res)
        # The limit (10 redirects) counts refreshes: the first page plus ten hops.
        assert len(srv.paths()) == 11, srv.paths()


def test_refresh_to_a_private_address_is_refused_without_a_request(make_client):
    with Recorder("127.0.0.1", {}) as srv, Recorder("127.0.0.2", {"/secret": lambda h: page("secret")}) as inner:
        srv.routes.update({
            "/to-loopback": lambda h: bare_refresh(f"0; url={inner.url('/secret')}"),
            "/to-ten": lambda h: bare_refresh("0; url=http://10.1.2.3:9/secret"),
        })
        lp = make_client(private=False, args=("--allow-network", "127.0.0.1/32"))
        for path in ("/to-loopback", "/to-ten"):
            with pytest.raises(LinkPeekError) as info:
                lp.fetch(srv.url(path), fetch_subresources=False, timeout=10)
            assert info.value.reason == "blockedAddress", info.value.data
        assert inner.paths() == []
        assert srv.paths() == ["/to-loopback", "/to-ten"]


def test_a_page_with_its_own_metadata_that_refreshes_is_previewed_as_it_is(fetch):
    with Recorder("127.0.0.1", {}) as srv:
        srv.routes.update({
            "/live": lambda h: page("Live scores", '<meta http-equiv="refresh" content="0; url=/elsewhere">'),
            "/reload": lambda h: page("Ticker", '<meta http-equiv="refresh" content="5">'),
            "/slow": lambda h: bare_refresh("30; url=/elsewhere"),
        })
        live = fetch(srv.url("/live"), "--no-subresources").one
        assert live["title"] == "Live scores" and "redirects" not in live
        assert fetch(srv.url("/reload"), "--no-subresources").one["title"] == "Ticker"
        slow = fetch(srv.url("/slow"), "--no-subresources").one
        assert slow["url"] == srv.url("/slow") and "redirects" not in slow
        assert "/elsewhere" not in srv.paths()


# ---------------------------------------------------------------- the user's language

def _lang_server():
    return Recorder("127.0.0.1", {"/lang": lambda h: page("lang " + h.headers.get("Accept-Language", "none"))})


def test_cli_sends_the_locale_from_lang(run_cli, linkpeek_bin):
    with _lang_server() as srv:
        for env, expected in ((locale_env(LANG="de_DE.UTF-8"), "de-DE,de;q=0.9"),
                              (locale_env(LANG="de_DE.UTF-8", LC_MESSAGES="fr_CA.UTF-8"), "fr-CA,fr;q=0.9"),
                              (locale_env(LANG="de_DE.UTF-8", LC_ALL="C"), None),
                              (locale_env(LANG="C"), None),
                              (locale_env(), None)):
            before = len(srv.hits)
            out = subprocess.run([linkpeek_bin, "fetch", "--allow-private-network", "--no-cache", "--no-subresources",
                                  srv.url("/lang")], env=env, capture_output=True, timeout=60)
            assert out.returncode == 0, out.stderr
            sent = srv.hits[before][1].get("accept-language")
            assert sent == expected, (env.get("LANG"), env.get("LC_ALL"), sent)
        # An explicit --accept-language wins over the locale.
        out = subprocess.run([linkpeek_bin, "fetch", "--allow-private-network", "--no-cache", "--no-subresources",
                              "--accept-language", "ja", srv.url("/lang")],
                             env=locale_env(LANG="de_DE.UTF-8"), capture_output=True, timeout=60)
        assert out.returncode == 0 and srv.hits[-1][1].get("accept-language") == "ja"


def test_daemon_sends_the_locale_and_keys_the_cache_by_it(make_client):
    with _lang_server() as srv:
        german = make_client(env=locale_env(LANG="de_DE.UTF-8"))
        assert german.fetch(srv.url("/lang"), fetch_subresources=False)["title"] == "lang de-DE,de;q=0.9"
        # The same URL asked in another language is another cache entry.
        assert german.fetch(srv.url("/lang"), fetch_subresources=False, accept_language="en")["title"] == "lang en"
        assert german.get_cached(srv.url("/lang"))["title"] == "lang de-DE,de;q=0.9"
        plain = make_client(env=locale_env(LANG="C"))
        assert plain.fetch(srv.url("/lang"), fetch_subresources=False)["title"] == "lang none"
        # An editor passes its own language.
        editor = make_client(env=locale_env(LANG="de_DE.UTF-8"), init_options={"acceptLanguage": "nl"})
        assert editor.fetch(srv.url("/lang"), fetch_subresources=False)["title"] == "lang nl"
        # `serve --accept-language ""` sends none, whatever the locale.
        silent = make_client(env=locale_env(LANG="de_DE.UTF-8"), args=("--accept-language", ""))
        assert silent.fetch(srv.url("/lang"), fetch_subresources=False)["title"] == "lang none"
        assert [h.get("accept-language") for _, h in srv.hits] == ["de-DE,de;q=0.9", "en", None, "nl", None]


def test_bad_accept_language_options_are_refused_by_name(make_client, run_cli):
    lp = make_client(initialize=False)
    with pytest.raises(LinkPeekError) as info:
        lp.request("initialize", {"initializationOptions": {"acceptLanguage": "de\nX-Evil: 1"}})
    assert info.value.code == -32602
    assert "initializationOptions.acceptLanguage" in info.value.message
    res = run_cli("serve", "--accept-language", "de\u0007", parse=False)
    assert res.returncode == 2 and "--accept-language" in res.stderr


# ---------------------------------------------------------------- polite to hosts

def test_retry_after_seconds_hold_the_host_without_requests(make_client):
    with Recorder("127.0.0.1", {}) as srv:
        srv.routes.update({
            "/busy": lambda h: (429, {"Retry-After": "120"}, b"slow down"),
            "/other": lambda h: page("Other"),
        })
        lp = make_client()
        with pytest.raises(LinkPeekError) as first:
            lp.fetch(srv.url("/busy"), fetch_subresources=False)
        assert first.value.reason == "rateLimited"
        assert first.value.data["retryAfter"] == 120 and first.value.data["status"] == 429
        with pytest.raises(LinkPeekError) as second:
            lp.fetch(srv.url("/other"), fetch_subresources=False)
        assert second.value.reason == "rateLimited"
        assert 0 < second.value.data["retryAfter"] <= 120
        assert "status" not in second.value.data
        assert "slow down" in second.value.message
        assert srv.paths() == ["/busy"]
        # The client library says it as a sentence.
        assert second.value.sentence() == "The site asked for fewer requests: try again in 2 minutes."
        # A reload is the user asking: it goes to the network.
        assert lp.fetch(srv.url("/other"), fetch_subresources=False, cache_policy="reload")["title"] == "Other"
        assert srv.paths() == ["/busy", "/other"]


def test_retry_after_http_date_on_503(make_client):
    with Recorder("127.0.0.1", {}) as srv:
        srv.routes.update({
            "/down": lambda h: (503, {"Retry-After": email.utils.formatdate(time.time() + 90, usegmt=True)}, b""),
            "/up": lambda h: page("Up"),
        })
        lp = make_client()
        with pytest.raises(LinkPeekError) as first:
            lp.fetch(srv.url("/down"), fetch_subresources=False)
        assert first.value.reason == "rateLimited" and 80 <= first.value.data["retryAfter"] <= 91
        with pytest.raises(LinkPeekError) as second:
            lp.fetch(srv.url("/up"), fetch_subresources=False)
        assert second.value.reason == "rateLimited"
        assert srv.paths() == ["/down"]


def test_a_429_without_retry_after_stays_an_http_status(make_client):
    with Recorder("127.0.0.1", {}) as srv:
        srv.routes.update({"/busy": lambda h: (429, {}, b""), "/ok": lambda h: page("OK")})
        lp = make_client()
        with pytest.raises(LinkPeekError) as info:
            lp.fetch(srv.url("/busy"), fetch_subresources=False)
        assert info.value.reason == "httpStatus" and info.value.data["status"] == 429
        assert lp.fetch(srv.url("/ok"), fetch_subresources=False)["title"] == "OK"


def test_images_honour_and_set_the_hold(make_client):
    with Recorder("127.0.0.1", {}) as srv, Recorder("127.0.0.1", {}) as cdn:
        cdn.routes["/a.png"] = lambda h: (429, {"Retry-After": "300", "Content-Type": "image/png"}, b"")
        srv.routes.update({
            "/one": lambda h: page("One", f'<meta property="og:image" content="{cdn.url("/a.png")}">'),
            "/two": lambda h: page("Two", f'<meta property="og:image" content="{cdn.url("/b.png")}">'),
        })
        lp = make_client()
        # The page's preview stands; its image's host is now held.
        one = lp.fetch(srv.url("/one"))
        assert one["title"] == "One" and one["image"]["url"] == cdn.url("/a.png") and "bytes" not in one["image"]
        two = lp.fetch(srv.url("/two"))
        assert two["title"] == "Two" and "bytes" not in two["image"]
        with pytest.raises(LinkPeekError) as info:
            lp.get_media(cdn.url("/c.png"), width=16)
        assert info.value.reason == "rateLimited" and 0 < info.value.data["retryAfter"] <= 300
        assert info.value.message.startswith("Image fetch failed: 127.0.0.1 asked linkpeek to slow down")
        assert cdn.paths() == ["/a.png"]


def test_cli_reports_retry_after(fetch):
    with Recorder("127.0.0.1", {"/busy": lambda h: (429, {"Retry-After": "30"}, b"")}) as srv:
        res = fetch(srv.url("/busy"), "--no-subresources", "--no-cache")
        assert_error(res.one, reason="rateLimited", res=res)
        assert res.one["error"]["retryAfter"] == 30 and res.one["error"]["status"] == 429


def test_prefetch_of_fifty_links_to_one_host_keeps_two_in_flight(make_client):
    with Recorder("127.0.0.1", {}) as srv, Recorder("127.0.0.1", {}) as other:
        srv.delay = other.delay = 0.05
        srv.routes.update({f"/p{i}": (lambda i: lambda h: page(f"P{i}"))(i) for i in range(50)})
        other.routes.update({f"/q{i}": (lambda i: lambda h: page(f"Q{i}"))(i) for i in range(4)})
        lp = make_client()
        urls = [srv.url(f"/p{i}") for i in range(50)] + [other.url(f"/q{i}") for i in range(4)]
        result = lp.prefetch(urls, wait=120)
        assert result["succeeded"] == 54, result
        pages = [p for p in srv.paths() if p != "/favicon.ico"]
        assert sorted(pages) == sorted(f"/p{i}" for i in range(50))
        assert srv.max_in_flight <= 2, srv.max_in_flight
        assert other.max_in_flight <= 2, other.max_in_flight
