"""Logging (issue 21 part 5): each decision the engine, Curl and the cache
make is logged with its reason, at the level the user picks; `--log-file`
appends; `serve` sends warnings to the client as `window/logMessage`.

Loopback only: a site on 127.0.0.1 with made-up names through `--resolve`.
"""

from __future__ import annotations

import http.server
import re
import threading
import time
import urllib.parse

import pytest

from background_server import BackgroundServer, respond

LOOPBACK = ["--allow-network", "127.0.0.1/32"]
PAGE = b"<!DOCTYPE html><html><head><title>A page</title></head><body>" + b"<p>text</p>" * 20000 + b"</body></html>"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    routes: dict = {}

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        route = self.routes.get(path)
        if route is None:
            return self.send(404, b"<title>not found</title>")
        route(self)

    send = respond


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request, client_address):
        pass  # a client that stopped reading (head complete, byte cap) is expected here


def endless_head(h):
    """A head that never ends, 4 MiB long: only the byte cap stops it."""
    h.send_response(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Content-Length", str(4 * 1024 * 1024))
    h.end_headers()
    unit = b'<meta name="filler" content="' + b"x" * 200 + b'">\n'
    try:
        h.wfile.write(b"<html><head><title>Endless</title>\n")
        for _ in range(4 * 1024 * 1024 // len(unit)):
            h.wfile.write(unit)
    except OSError:
        pass


def never(h):
    """Headers only, then silence for up to 10 s (the fetch times out first)."""
    h.send_response(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Content-Length", "100000")
    h.end_headers()
    h.wfile.flush()
    h.server.never_started.set()
    h.server.release.wait(10)


@pytest.fixture
def site():
    port_box = {}
    release = threading.Event()

    def oembed_link(h):
        port = port_box["port"]
        link = f'<http://w.example.test:{port}/oembed?id=1>; rel="alternate"; type="application/json+oembed"'
        h.send(403, b"<title>Just a moment...</title>", headers=[("cf-mitigated", "challenge"), ("Link", link)])

    Handler.routes = {
        "/page": lambda h: h.send(200, PAGE),
        "/endless": endless_head,
        "/never": never,
        "/challenge": lambda h: h.send(403, b"<title>Just a moment...</title>", headers=[("cf-mitigated", "challenge")]),
        "/walled-with-oembed": oembed_link,
        "/oembed": lambda h: h.send(200, b'{"version":"1.0","type":"rich","title":"From oEmbed"}',
                                    ctype="application/json"),
        "/busy": lambda h: h.send(429, b"<title>slow down</title>", headers=[("Retry-After", "120")]),
        "/refresh": lambda h: h.send(200, b'<html><head><meta http-equiv="refresh" content="0; url=/page"></head></html>'),
        "/nostore": lambda h: h.send(200, b"<title>Private</title>", headers=[("Cache-Control", "no-store")]),
    }
    httpd = Server(("127.0.0.1", 0), Handler)
    httpd.release = release
    httpd.never_started = threading.Event()
    with BackgroundServer(httpd) as bg:
        port_box["port"] = bg.port
        site = type("Site", (), {})()
        site.port = bg.port
        site.never_started = httpd.never_started
        site.url = lambda path, host="w.example.test": f"http://{host}:{bg.port}{path}"
        site.args = [*LOOPBACK, "--resolve", f"w.example.test:{bg.port}:127.0.0.1"]
        try:
            yield site
        finally:
            release.set()


def records(stderr: str, message: str) -> list[str]:
    """The log lines whose message is `message`."""
    return [line for line in stderr.splitlines() if re.search(r"^\S+ \w+: " + re.escape(message) + r"( |$)", line)]


def one(stderr: str, message: str, level: str) -> str:
    found = records(stderr, message)
    assert len(found) == 1, f"expected one {message!r} line, got {found}\nstderr={stderr[-3000:]!r}"
    assert found[0].split(" ")[1] == level + ":", found[0]
    return found[0]


# ------------------------------------------------------------------ decisions, with their reasons

def test_a_refused_address_is_logged_at_info_with_the_address_and_the_rule(run_cli, site):
    url = f"http://127.0.0.1:{site.port}/page"
    res = run_cli("fetch", "--log-level", "info", url)
    assert res.one["error"]["reason"] == "blockedAddress", res.describe()
    line = one(res.stderr, "address refused", "info")
    assert "address=127.0.0.1" in line and "rule=127.0.0.0/8 loopback" in line and f"url={url}" in line
    # At the default level (warning) it is not said.
    quiet = run_cli("fetch", url)
    assert records(quiet.stderr, "address refused") == [], quiet.describe()


def test_a_page_read_to_the_end_of_its_head_says_so_at_debug(run_cli, site):
    res = run_cli("fetch", *site.args, "--no-subresources", "--log-level", "debug", site.url("/page"))
    assert res.one["title"] == "A page", res.describe()
    line = one(res.stderr, "transfer stopped", "debug")
    assert "reason=consumer done (head complete)" in line
    info = run_cli("fetch", *site.args, "--no-subresources", "--log-level", "info", site.url("/page"))
    assert records(info.stderr, "transfer stopped") == [], info.describe()


def test_the_byte_cap_is_logged_at_info(run_cli, site):
    res = run_cli("fetch", *site.args, "--no-subresources", "--log-level", "info", site.url("/endless"))
    line = one(res.stderr, "transfer stopped", "info")
    assert f"reason=byte cap of {2 * 1024 * 1024} bytes" in line, res.describe()


def test_a_timeout_is_logged_at_info(run_cli, site):
    res = run_cli("fetch", *site.args, "--timeout", "1", "--log-level", "info", site.url("/never"), timeout=30)
    assert res.one["error"]["kind"] == "timedOut", res.describe()
    assert "reason=timeout after 1.0 s" in one(res.stderr, "fetch stopped", "info")


def test_a_wall_is_logged_with_its_kind(run_cli, site):
    res = run_cli("fetch", *site.args, "--log-level", "info", site.url("/challenge"))
    assert res.one["error"]["wall"] == "challenge", res.describe()
    line = one(res.stderr, "wall detected", "info")
    assert "wall=challenge" in line and "status=403" in line


def test_an_oembed_fallback_is_logged_with_its_reason(run_cli, site):
    res = run_cli("fetch", *site.args, "--no-subresources", "--log-level", "info", site.url("/walled-with-oembed"))
    assert res.one["title"] == "From oEmbed", res.describe()
    assert "wall=challenge" in one(res.stderr, "wall detected", "info")
    line = one(res.stderr, "oEmbed fallback taken", "info")
    assert "reason=the page is a bot check" in line and "endpoint=" + site.url("/oembed?id=1") in line


def test_a_host_held_for_retry_after_is_logged_and_so_is_the_fetch_not_sent(run_cli, site):
    res = run_cli("fetch", *site.args, "--concurrency", "1", "--log-level", "debug",
                  site.url("/busy"), site.url("/page"))
    assert [o["error"]["reason"] for o in res.objects] == ["rateLimited", "rateLimited"], res.describe()
    line = one(res.stderr, "host held for Retry-After", "info")
    assert "seconds=120" in line and "status=429" in line and "host=w.example.test" in line
    assert site.url("/page") in one(res.stderr, "not asked: host held for Retry-After", "debug")


def test_a_meta_refresh_followed_is_logged(run_cli, site):
    res = run_cli("fetch", *site.args, "--no-subresources", "--log-level", "info", site.url("/refresh"))
    assert res.one["title"] == "A page", res.describe()
    line = one(res.stderr, "meta refresh followed", "info")
    assert f"from={site.url('/refresh')}" in line and f"to={site.url('/page')}" in line


def test_a_no_store_answer_drops_its_cache_entry(run_cli, site, tmp_path):
    res = run_cli("fetch", *site.args, "--no-subresources", "--cache-dir", str(tmp_path), "--log-level", "debug",
                  site.url("/nostore"))
    assert res.one["title"] == "Private", res.describe()
    assert "reason=Cache-Control: no-store" in one(res.stderr, "cache entry dropped", "debug")


def test_a_corrupt_cache_file_moved_aside_is_a_warning(run_cli, site, tmp_path):
    (tmp_path / "cache.sqlite").write_bytes(b"not a database" * 100)
    res = run_cli("fetch", *site.args, "--no-subresources", "--cache-dir", str(tmp_path), site.url("/page"))
    assert res.one["title"] == "A page", res.describe()
    line = [l for l in res.stderr.splitlines() if "moved it aside" in l]
    assert len(line) == 1 and line[0].startswith("linkpeek warning: "), res.describe()
    assert len(list(tmp_path.glob("cache.sqlite.corrupt-*"))) == 1


def test_an_unusable_cache_directory_is_a_warning(run_cli, site, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    res = run_cli("fetch", *site.args, "--no-subresources", "--cache-dir", str(blocker), site.url("/page"))
    assert res.one["title"] == "A page", res.describe()
    warnings = [l for l in res.stderr.splitlines() if l.startswith("linkpeek warning: cannot use")]
    assert len(warnings) == 1, res.describe()


# ------------------------------------------------------------------ the flags

def test_log_file_appends_and_keeps_stderr_quiet(run_cli, site, tmp_path):
    log = tmp_path / "linkpeek.log"
    log.write_text("an earlier line\n")
    url = f"http://127.0.0.1:{site.port}/page"
    for _ in range(2):
        res = run_cli("fetch", "--no-cache", "--log-level", "info", "--log-file", str(log), url)
        assert res.stderr == "", res.describe()
    lines = log.read_text().splitlines()
    assert lines[0] == "an earlier line"
    assert len(records("\n".join(lines), "address refused")) == 2, lines


def test_a_log_file_that_cannot_be_opened_is_a_usage_error(run_cli, tmp_path):
    res = run_cli("fetch", "--log-file", str(tmp_path / "no" / "such" / "dir.log"), "https://example.com/", parse=False)
    assert res.returncode == 2, res.describe()
    assert "--log-file" in res.stderr and "No such file or directory" in res.stderr, res.describe()


def test_a_bad_log_level_exits_2_naming_the_flag(run_cli):
    res = run_cli("fetch", "--log-level", "loud", "https://example.com/", parse=False)
    assert res.returncode == 2, res.describe()
    assert "--log-level" in res.stderr and "'loud'" in res.stderr, res.describe()


@pytest.mark.parametrize("command", [
    ["fetch"], ["parse"], ["serve"], ["image"], ["cache", "stats"], ["cache", "get"], ["cache", "clear"],
    ["cache", "prune"], ["saved", "add"], ["saved", "list"], ["saved", "remove"],
    ["saved", "export"], ["fleet", "stats"],
])
def test_every_subcommand_that_does_work_takes_the_logging_flags(run_cli, command):
    res = run_cli(*command, "--help", parse=False)
    assert res.returncode == 0, res.describe()
    assert "--log-level <level>" in res.stdout and "--log-file <file>" in res.stdout, res.describe()


# ------------------------------------------------------------------ the daemon

def log_messages(client, after=0):
    return [m for m in client.messages()[after:] if m.get("method") == "window/logMessage"]


def test_a_warning_reaches_the_client_as_window_log_message_and_stderr(make_client):
    c = make_client(args=["--log-level", "info"])
    mark = c.mark()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///a.md"}})
    m = c.wait_for(lambda m: m.get("method") == "window/logMessage", timeout=10, after=mark)
    assert m["params"]["type"] == 2 and m["params"]["message"].startswith("linkpeek.server: ignored a notification with bad params: textDocument.text")
    # The info lines of the same session stay on stderr: only warnings and errors go to the client.
    deadline = time.monotonic() + 10
    line = "linkpeek.server warning: ignored a notification with bad params: textDocument.text is required"
    while line not in c.stderr_tail and time.monotonic() < deadline:
        time.sleep(0.05)
    assert line in c.stderr_tail, list(c.stderr_tail)


def test_info_records_are_not_sent_to_the_client(make_client):
    c = make_client(private=False, args=["--log-level", "info"])
    mark = c.mark()
    with pytest.raises(Exception):
        c.fetch("http://127.0.0.1:9/refused", timeout=10)
    deadline = time.monotonic() + 10
    while not any(" info: address refused" in l for l in c.stderr_tail) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any(" info: address refused" in l for l in c.stderr_tail), list(c.stderr_tail)
    assert log_messages(c, mark) == []


def test_a_hover_that_fails_says_why_in_the_clients_log(make_client, site):
    c = make_client(private=False, args=[*site.args])
    url = site.url("/challenge")
    c.did_open("file:///notes.md", f"see {url}\n")
    mark = c.mark()
    hover = c.hover("file:///notes.md", 0, 6, wait=20)
    assert hover is not None
    m = c.wait_for(lambda m: m.get("method") == "window/logMessage" and "hover failed" in m["params"]["message"],
                   timeout=10, after=mark)
    assert m["params"]["type"] == 2
    assert f"url={url}" in m["params"]["message"] and "reason=blocked" in m["params"]["message"], m


def test_a_prefetched_thumbnail_not_made_says_why_at_debug(make_client, site):
    c = make_client(private=False, args=[*site.args, "--log-level", "debug"])
    url = site.url("/page")
    result = c.prefetch([url], thumbnail={"width": 30})
    assert (result["total"], result["succeeded"]) == (1, 1), result
    # The page declares no image: the preview is warm, the image's thumbnail is not made, and the log says why.
    deadline = time.monotonic() + 10
    while not records("\n".join(c.stderr_tail), "no prefetched thumbnail") and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [line for line in records("\n".join(c.stderr_tail), "no prefetched thumbnail") if "kind=image" in line]
    assert len(lines) == 1 and lines[0].startswith("linkpeek debug: "), list(c.stderr_tail)
    assert f"url={url}" in lines[0] and "error=" in lines[0], lines[0]


def test_a_cancelled_transfer_says_so_at_debug(make_client, site):
    c = make_client(private=False, args=[*site.args, "--log-level", "debug"])
    pending = c.fetch_async(site.url("/never"), provider_id="p1", timeout=30, fetch_subresources=False)
    # Cancel once the response has started (the server sent its headers and went quiet).
    assert site.never_started.wait(10)
    assert c.cancel("p1", wait=10)["cancelled"] is True
    with pytest.raises(Exception):
        pending.result(timeout=10)
    deadline = time.monotonic() + 10
    while not records("\n".join(c.stderr_tail), "transfer stopped") and time.monotonic() < deadline:
        time.sleep(0.05)
    line = one("\n".join(c.stderr_tail), "transfer stopped", "debug")
    assert "reason=cancelled" in line and f"url={site.url('/never')}" in line
