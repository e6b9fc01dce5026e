"""`linkpeek serve --http`: every endpoint and status, the token and bind
rules, the limits (per client, concurrency and queue, slow clients), SIGTERM
with requests in flight, /readyz while Redis dies and comes back, and
/metrics moving by exactly what a scripted session causes. The real binary,
on loopback, against the fixture server; each test starts its own service."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time

import pytest

import openapi_check
from http_service import HTTPService, seconds_until_cut
from redis_fixture import own_redis


@pytest.fixture
def service(linkpeek_bin, tmp_path):
    """service(*flags, private=True) -> a started HTTPService with its own cache dir."""
    started = []

    def start(*flags, private=True):
        cache = tmp_path / f"cache{len(started)}"
        cache.mkdir()
        args = ["--http", "127.0.0.1:0", "--cache-dir", str(cache),
                *(["--allow-private-network"] if private else []), *flags]
        s = HTTPService(linkpeek_bin, args).start()
        started.append(s)
        return s

    yield start
    found = []
    for s in started:
        s.kill()
        for path, reply in s.replies:
            found += openapi_check.problems(path, reply.status, reply.headers, reply.body)
    if found:
        pytest.fail("replies that protocol/openapi.json does not describe:\n" + "\n".join(found[:20]))


@pytest.fixture
def redis(tmp_path):
    with own_redis(tmp_path, "the readiness test needs its own Redis") as server:
        yield server


def error_of(reply) -> dict:
    body = reply.json
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body
    return body["error"]


# ---------------------------------------------------------------- /v1/preview

def test_preview_miss_then_hit_with_etag_and_freshness(service, server):
    s = service()
    url = server.url("/page?t=preview-hit")
    first = s.preview(url, subresources="false")
    assert first.status == 200, first.body
    assert first.json["title"] == "Fixture Page"
    assert first.header("content-type") == "application/json"
    assert first.header("x-cache") == "miss"
    assert first.header("cache-control") == "public, max-age=86400"
    second = s.preview(url, subresources="false")
    assert second.status == 200
    assert second.header("x-cache") == "hit"
    assert second.json["fromCache"] is True
    etag = second.header("etag")
    assert etag.startswith('"') and len(etag) == 18
    max_age = int(second.header("cache-control").split("max-age=")[1])
    assert 86390 <= max_age <= 86400
    again = s.preview(url, subresources="false", headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b""
    assert again.header("etag") == etag
    assert server.hits("/page?t=preview-hit") == 1


def wait_metric(s, name: str, value, what: str, seconds: float = 20):
    deadline = time.monotonic() + seconds
    while s.metrics().get(name) != value:
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_a_request_that_joins_another_fetch_says_joined(service, server):
    s = service()
    run = f"joined-{time.monotonic_ns()}"
    url = server.url(f"/held?key={run}&title=joined")
    before = server.hits("/held")
    results = {}

    def ask(i):
        results[i] = s.preview(url, subresources="false")

    # States, not pauses: the first request's page is held at the server, then the second is in the service
    # too (it finds no cache entry and waits for the first one's fetch) before the page is let go.
    first = threading.Thread(target=ask, args=(0,))
    first.start()
    assert server.wait_in_flight(run, 1, 20), "the first request's page never reached the server"
    second = threading.Thread(target=ask, args=(1,))
    second.start()
    wait_metric(s, "linkpeek_joined_fetches_total", 1, "the second request never joined the first one's fetch")
    server.release(run)
    first.join(20)
    second.join(20)
    assert [results[0].status, results[1].status] == [200, 200]
    assert results[0].json["title"] == results[1].json["title"] == "joined"
    assert [results[0].header("x-cache"), results[1].header("x-cache")] == ["miss", "joined"]
    assert server.hits("/held") - before == 1


def test_preview_takes_fetch_options_as_query_parameters(service, server):
    s = service()
    reply = s.preview(server.url("/lang"), acceptLanguage="fr-CH", cachePolicy="reload", timeout="10",
                      subresources="false")
    assert reply.status == 200
    assert reply.json["title"] == "lang fr-CH"
    missing = s.preview(server.url("/page?t=never-cached"), cachePolicy="cacheOnly")
    assert missing.status == 404
    assert error_of(missing)["reason"] == "notCached"
    assert server.hits("/page?t=never-cached") == 0


@pytest.mark.parametrize("params, needle", [
    ({}, "url is required"),
    ({"url": "http://x.test/", "cachePolicy": "sometimes"}, "cachePolicy must be one of"),
    ({"url": "http://x.test/", "timeout": "0"}, "timeout must be a number from 0.001 to 3600"),
    ({"url": "http://x.test/", "timeout": "soon"}, "timeout must be a number"),
    ({"url": "http://x.test/", "subresources": "maybe"}, "subresources must be true or false"),
    ({"url": "http://x.test/", "acceptLanguage": "a\x01b"}, "acceptLanguage must not contain control characters"),
    ({"url": "http://x.test/", "includeData": "true"}, 'unknown parameter "includeData"'),
])
def test_preview_bad_parameters_are_400(service, params, needle):
    s = service()
    reply = s.get("/v1/preview", params)
    assert reply.status == 400, reply.body
    error = error_of(reply)
    assert error["reason"] == "invalidParams"
    assert needle in error["message"]


def test_preview_bad_url_is_400_and_a_long_one_414(service):
    s = service()
    bad = s.preview("ftp://example.test/file")
    assert bad.status == 400
    assert error_of(bad)["reason"] == "unsupportedScheme"
    long = s.preview("http://example.test/" + "a" * 5000)
    assert long.status == 414
    assert error_of(long)["reason"] == "urlTooLong"


def test_preview_origin_statuses_pass_through(service, server):
    s = service()
    for code, expected in ((404, 404), (410, 410), (500, 502), (403, 502)):
        reply = s.preview(server.url(f"/status/{code}"))
        assert reply.status == expected, (code, reply.body)
        error = error_of(reply)
        assert (error["kind"], error["reason"], error["status"]) == ("failed", "httpStatus", code)


def test_preview_timeout_is_504(service, server):
    s = service()
    reply = s.preview(server.url("/never?s=10"), timeout="0.5")
    assert reply.status == 504
    assert error_of(reply)["kind"] == "timedOut"


def test_preview_rate_limited_origin_is_429_with_retry_after(service, server):
    def limited(h, path, q):
        h.send(429, b"<html><head><title>slow down</title></head></html>", headers={"Retry-After": "120"})

    server.add_route("/limited-http", limited)
    s = service()
    first = s.preview(server.url("/limited-http"))
    assert first.status == 429
    assert first.header("retry-after") == "120"
    assert error_of(first)["reason"] == "rateLimited"
    # The host is held: the next one is refused without asking it.
    held = s.preview(server.url("/limited-http?again=1"))
    assert held.status == 429
    assert 110 <= int(held.header("retry-after")) <= 120
    assert server.hits("/limited-http") == 1
    assert s.metrics()["linkpeek_rate_limit_holds_total"] == 1


def test_private_address_is_403_and_the_target_never_asked(service, server):
    s = service(private=False)
    reply = s.preview(server.url("/page?t=private"))
    assert reply.status == 403
    assert error_of(reply)["reason"] == "blockedAddress"
    image = s.get("/v1/image", {"url": server.url("/img/x.png?w=10&h=10&t=private")})
    assert image.status == 403
    assert server.hits("/page?t=private") == 0
    assert server.hits("/img/x.png?w=10&h=10&t=private") == 0


# ---------------------------------------------------------------- /v1/oembed and /v1/image

def test_oembed_link_with_thumbnail_scaled_to_maxwidth(service, server):
    s = service()
    reply = s.get("/v1/oembed", {"url": server.url("/page"), "maxwidth": "60"})
    assert reply.status == 200, reply.body
    body = reply.json
    assert body["version"] == "1.0" and body["type"] == "link"
    assert body["title"] == "Fixture Page"
    assert body["provider_name"] == "Fixture Site"
    assert body["provider_url"] == server.base_url + "/"
    assert (body["thumbnail_width"], body["thumbnail_height"]) == (60, 31)
    assert body["thumbnail_url"].endswith("/img/og.png?w=120&h=63")
    assert 86390 <= body["cache_age"] <= 86400


def test_oembed_video_and_photo(service, server):
    def video_page(h, path, q):
        h.send(200, (
            "<html><head><title>A video</title>"
            f'<meta property="og:video" content="{h.base}/media/clip.mp4">'
            '<meta property="og:video:type" content="video/mp4">'
            '<meta property="og:video:width" content="1280"><meta property="og:video:height" content="720">'
            "</head><body>v</body></html>").encode())

    server.add_route("/video-page", video_page)
    s = service()
    video = s.get("/v1/oembed", {"url": server.url("/video-page"), "maxwidth": "640"}).json
    assert video["type"] == "video"
    assert (video["width"], video["height"]) == (640, 360)
    assert video["html"] == (f'<video src="{server.base_url}/media/clip.mp4" width="640" height="360" '
                             'controls></video>')
    photo = s.get("/v1/oembed", {"url": server.url("/img/photo.png?w=300&h=200")}).json
    assert photo["type"] == "photo"
    assert (photo["width"], photo["height"]) == (300, 200)
    assert photo["url"] == server.url("/img/photo.png?w=300&h=200")


def test_oembed_refuses_xml_and_bad_sizes(service, server):
    s = service()
    assert s.get("/v1/oembed", {"url": server.url("/page"), "format": "xml"}).status == 501
    bad = s.get("/v1/oembed", {"url": server.url("/page"), "maxwidth": "0"})
    assert bad.status == 400
    assert "maxwidth must be an integer from 1 to 2048" in error_of(bad)["message"]


def test_image_is_the_preview_image_transformed(service, server):
    s = service()
    reply = s.get("/v1/image", {"url": server.url("/page"), "width": "60", "format": "png"})
    assert reply.status == 200, reply.body
    assert reply.header("content-type") == "image/png"
    assert reply.body[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(reply.body[16:20], "big")
    assert width == 60
    assert reply.header("cache-control") == "public, max-age=86400"
    again = s.get("/v1/image", {"url": server.url("/page"), "width": "60", "format": "png"},
                  headers={"If-None-Match": reply.header("etag")})
    assert again.status == 304
    assert s.get("/v1/image", {"url": server.url("/page"), "width": "5000"}).status == 400
    assert s.get("/v1/image", {"url": server.url("/page"), "fit": "stretch"}).status == 400
    notimage = s.get("/v1/image", {"url": server.url("/status/404")})
    assert notimage.status == 404


# ---------------------------------------------------------------- probes, routing

def test_probes_and_unknown_paths(service):
    s = service()
    assert s.get("/healthz").json == {"status": "ok"}
    assert s.get("/readyz").json == {"status": "ready"}
    missing = s.get("/v2/preview")
    assert missing.status == 404 and error_of(missing)["reason"] == "noSuchEndpoint"
    connection = http.client.HTTPConnection(s.host, s.port, timeout=10)
    connection.request("POST", "/v1/preview", body=b"{}")
    response = connection.getresponse()
    assert response.status == 405 and response.getheader("Allow") == "GET, HEAD"
    connection.close()


# ---------------------------------------------------------------- tokens and the bind rule

def test_non_loopback_bind_needs_tokens_or_no_auth(linkpeek_bin, tmp_path):
    refused = subprocess.run([linkpeek_bin, "serve", "--http", "0.0.0.0:0"], capture_output=True, timeout=30)
    assert refused.returncode == 2
    assert b"is not a loopback address: give --http-token-file (bearer tokens) or --http-no-auth" in refused.stderr
    both = subprocess.run([linkpeek_bin, "serve", "--http", "0.0.0.0:0", "--http-no-auth",
                           "--http-token-file", str(tmp_path / "t")], capture_output=True, timeout=30)
    assert both.returncode == 2 and b"exclude each other" in both.stderr
    alone = subprocess.run([linkpeek_bin, "serve", "--http-no-auth"], capture_output=True, timeout=30)
    assert alone.returncode == 2 and b"need --http" in alone.stderr
    empty = tmp_path / "empty-tokens"
    empty.write_text("# nothing\n\n")
    none = subprocess.run([linkpeek_bin, "serve", "--http", "0.0.0.0:0", "--http-token-file", str(empty)],
                          capture_output=True, timeout=30)
    assert none.returncode == 2 and b"holds no token" in none.stderr


def test_no_auth_binds_any_address(linkpeek_bin, tmp_path):
    s = HTTPService(linkpeek_bin, ["--http", "0.0.0.0:0", "--http-no-auth", "--cache-dir", str(tmp_path)]).start()
    try:
        assert s.get("/v1/preview").status == 400  # served, not 401
    finally:
        s.kill()


def test_bearer_tokens(linkpeek_bin, tmp_path, server):
    tokens = tmp_path / "tokens"
    tokens.write_text("# service tokens\nfirst-secret\n\nsecond-secret\n")
    s = HTTPService(linkpeek_bin, ["--http", "0.0.0.0:0", "--http-token-file", str(tokens), "--cache-dir",
                                   str(tmp_path / "c"), "--allow-private-network"]).start()
    try:
        url = server.url("/page?t=tokens")
        none = s.preview(url)
        assert none.status == 401 and none.header("www-authenticate") == "Bearer"
        assert s.preview(url, headers={"Authorization": "Bearer first-secre"}).status == 401
        assert s.preview(url, headers={"Authorization": "Bearer first-secret2"}).status == 401
        assert s.preview(url, headers={"Authorization": "Basic Zmlyc3Qtc2VjcmV0"}).status == 401
        assert s.get("/metrics").status == 401
        assert server.hits("/page?t=tokens") == 0
        assert s.preview(url, headers={"Authorization": "Bearer second-secret"}).status == 200
        assert s.get("/healthz").status == 200 and s.get("/readyz").status == 200
    finally:
        s.kill()


# ---------------------------------------------------------------- [http] in the configuration file

def from_config(linkpeek_bin, tmp_path, text, *flags, name="config.toml"):
    """serve --http-from-config with `text` as its configuration file (info log, for the reload lines)."""
    config = tmp_path / name
    config.write_text(text)
    cache = tmp_path / f"cache-{name}"
    cache.mkdir(exist_ok=True)
    return HTTPService(linkpeek_bin, ["--http-from-config", "--config", str(config), "--cache-dir", str(cache),
                                      "--allow-private-network", "--log-level", "info", *flags]).start()


def wait_log(s, needle: str, count: int = 1, seconds: float = 20):
    deadline = time.monotonic() + seconds
    while bytes(s.stderr).decode(errors="replace").count(needle) < count:
        assert time.monotonic() < deadline, f"never logged {needle!r}: {bytes(s.stderr)[-2000:]!r}"
        time.sleep(0.02)


def test_http_settings_come_from_the_file_and_a_flag_beats_them(linkpeek_bin, tmp_path):
    text = '[http]\nlisten = "127.0.0.1:0"\nclientRate = 2\n'
    s = from_config(linkpeek_bin, tmp_path, text)
    try:
        assert [s.get("/v1/preview").status for _ in range(3)] == [400, 400, 429]
    finally:
        s.kill()
    flagged = from_config(linkpeek_bin, tmp_path, text, "--http-client-rate", "4", name="flagged.toml")
    try:
        assert [flagged.get("/v1/preview").status for _ in range(5)] == [400, 400, 400, 400, 429]
    finally:
        flagged.kill()


def test_http_from_config_needs_a_listen_address_and_keeps_the_bind_rule(linkpeek_bin, tmp_path):
    def serve(text, *flags):
        config = tmp_path / "c.toml"
        config.write_text(text)
        return subprocess.run([linkpeek_bin, "serve", "--config", str(config), *flags], capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=30)

    none = serve("timeout = 5\n", "--http-from-config")
    assert none.returncode == 2 and b"--http-from-config needs http.listen" in none.stderr
    open_bind = serve('[http]\nlisten = "0.0.0.0:0"\n', "--http-from-config")
    assert open_bind.returncode == 2 and b"is not a loopback address" in open_bind.stderr
    both = serve(f'[http]\nlisten = "0.0.0.0:0"\nnoAuth = true\ntokenFile = "{tmp_path / "t"}"\n',
                 "--http-from-config")
    assert both.returncode == 2 and b"exclude each other" in both.stderr
    alone = serve("", "--http-client-rate", "5")
    assert alone.returncode == 2 and b"need --http" in alone.stderr


def test_sighup_reads_tokens_limits_and_engine_settings_again(linkpeek_bin, tmp_path, server):
    tokens = tmp_path / "tokens"
    tokens.write_text("first-token\n")

    def config(agent, listen, token_file):
        return (f'userAgent = "{agent}"\n[http]\nlisten = "{listen}"\ntokenFile = "{token_file}"\n'
                f"clientRate = 1000\n")

    s = from_config(linkpeek_bin, tmp_path, config("agent-one", "127.0.0.1:0", tokens))
    try:
        first = {"Authorization": "Bearer first-token"}
        second = {"Authorization": "Bearer second-token"}
        one = s.preview(server.url("/ua?n=sighup-1"), subresources="false", headers=first)
        assert one.status == 200 and one.json["title"] == "agent-one"

        tokens.write_text("second-token\n")
        (tmp_path / "config.toml").write_text(config("agent-two", "127.0.0.1:1", tokens))
        os.kill(s.proc.pid, signal.SIGHUP)
        wait_log(s, "SIGHUP: configuration read again")
        log = bytes(s.stderr).decode()
        assert (f"SIGHUP: http.listen is now 127.0.0.1:1; the service listens on 127.0.0.1:{s.port} "
                "until it is restarted") in log
        assert s.preview(server.url("/ua?n=sighup-2"), subresources="false", headers=first).status == 401
        two = s.preview(server.url("/ua?n=sighup-2"), subresources="false", headers=second)
        assert two.status == 200 and two.json["title"] == "agent-two"

        # A reload the front cannot take (its token file gone) changes nothing of it, and says why.
        (tmp_path / "config.toml").write_text(config("agent-two", "127.0.0.1:0", tmp_path / "missing"))
        os.kill(s.proc.pid, signal.SIGHUP)
        wait_log(s, "SIGHUP: configuration read again", count=2)
        assert "SIGHUP: [http] not applied, the service goes on as it was: --http-token-file: cannot read" in \
            bytes(s.stderr).decode()
        assert s.get("/healthz").status == 200
        assert s.preview(server.url("/ua?n=sighup-3"), subresources="false", headers=second).status == 200
    finally:
        s.kill()


# ---------------------------------------------------------------- limits

def test_per_client_limit_answers_429(service):
    s = service("--http-client-rate", "3")
    statuses = [s.get("/v1/preview").status for _ in range(5)]
    # Three in the burst (400: no url), then the limit; within a second nothing refills more than 3.
    assert statuses[:3] == [400, 400, 400]
    assert statuses[3:] == [429, 429]
    limited = s.get("/v1/preview")
    assert limited.header("retry-after") == "1"
    assert error_of(limited)["reason"] == "clientLimited"
    assert s.get("/healthz").status == 200  # probes are outside the limit
    time.sleep(1.1)
    assert s.get("/v1/preview").status == 400


def test_concurrency_and_queue_bounds_answer_503(service, server):
    s = service("--http-max-concurrent", "1", "--http-max-queue", "1")
    results = {}
    run = f"bounds-{time.monotonic_ns()}"
    # The fixture server is the session's: count this test's requests only.
    before = server.hits("/held")

    def ask(i):
        results[i] = s.preview(server.url(f"/held?key={run}-{i}&title=b{i}"), subresources="false")

    # States, not pauses: the first holds the one slot (its page held at the server), the second waits in
    # the queue (the queue-depth gauge says so), then the third finds both full.
    first = threading.Thread(target=ask, args=(0,))
    first.start()
    assert server.wait_in_flight(f"{run}-0", 1, 20), "the first request's page never reached the server"
    second = threading.Thread(target=ask, args=(1,))
    second.start()
    wait_metric(s, "linkpeek_http_queue_depth", 1, "the second request never queued")
    third = s.preview(server.url(f"/held?key={run}-2"), subresources="false")
    server.release(f"{run}-0")
    server.release(f"{run}-1")
    first.join(20)
    second.join(20)
    assert third.status == 503
    assert third.header("retry-after") == "1"
    assert error_of(third)["reason"] == "overloaded"
    assert [results[0].status, results[1].status] == [200, 200]
    assert server.hits("/held") - before == 2


def test_slow_client_is_cut(service):
    s = service("--http-request-timeout", "1")
    with socket.create_connection((s.host, s.port), timeout=10) as slow:
        started = time.monotonic()
        slow.sendall(b"GET /healthz HTTP/1.1\r\n")
        closed_after = seconds_until_cut(
            slow, started, [b"Host: x\r\n", b"X-A: 1\r\n", b"X-B: 2\r\n", b"X-C: 3\r\n", b"X-D: 4\r\n"])
    assert 0.9 <= closed_after <= 2.5
    # A prompt client on another connection is served all along.
    assert s.get("/healthz").status == 200


# ---------------------------------------------------------------- lifecycle

def test_sigterm_answers_every_request_in_flight_then_exits_0(service, server):
    s = service()
    results = {}

    def ask(i):
        results[i] = s.preview(server.url(f"/slow?ms=1500&title=drain{i}"), subresources="false")

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(5)]
    # The fixture server is the session's: count this test's requests only.
    before = server.hits("/slow")
    for t in threads:
        t.start()
    server.wait_hits("/slow", before + 5, 10)
    assert server.hits("/slow") - before == 5
    code = s.terminate(timeout=20)
    for t in threads:
        t.join(10)
    assert code == 0
    assert sorted(r.status for r in results.values()) == [200] * 5
    assert sorted(r.json["title"] for r in results.values()) == [f"drain{i}" for i in range(5)]
    with pytest.raises(OSError):
        socket.create_connection((s.host, s.port), timeout=2).close()


def test_sigterm_writes_the_cache_back(service, server, linkpeek_bin, tmp_path):
    s = service()
    assert s.preview(server.url("/page?t=flushed"), subresources="false").status == 200
    assert s.terminate(timeout=20) == 0
    again = HTTPService(linkpeek_bin, ["--http", "127.0.0.1:0", "--cache-dir", str(tmp_path / "cache0"),
                                       "--allow-private-network"]).start()
    try:
        reply = again.preview(server.url("/page?t=flushed"), subresources="false")
        assert reply.status == 200 and reply.header("x-cache") == "hit"
        assert server.hits("/page?t=flushed") == 1
        assert again.metrics()['linkpeek_cache_hits_total{level="disk"}'] == 1
    finally:
        again.kill()


def test_an_address_in_use_exits_1(linkpeek_bin, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([linkpeek_bin, "serve", "--http", f"127.0.0.1:{port}", "--cache-dir", str(tmp_path)],
                              capture_output=True, timeout=30)
    assert done.returncode == 1
    assert b"the HTTP service stopped" in done.stderr
    assert b"Address already in use" in done.stderr


def test_readyz_follows_redis(service, redis):
    s = service("--fleet", redis.url)
    assert s.get("/readyz").status == 200
    port = redis.port
    redis.kill()
    deadline = time.monotonic() + 10
    reply = s.get("/readyz")
    while reply.status != 503 and time.monotonic() < deadline:
        time.sleep(0.1)
        reply = s.get("/readyz")
    assert reply.status == 503 and reply.json == {"status": "redisUnreachable"}
    assert s.get("/healthz").status == 200
    assert s.metrics()["linkpeek_redis_up"] == 0
    redis.port = port
    redis.start()
    deadline = time.monotonic() + 30
    reply = s.get("/readyz")
    while reply.status != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
        reply = s.get("/readyz")
    assert reply.status == 200 and reply.json == {"status": "ready"}
    assert s.metrics()["linkpeek_redis_up"] == 1


def test_second_instance_answers_from_the_fleet(service, server, redis):
    first = service("--fleet", redis.url)
    second = service("--fleet", redis.url)
    url = server.url("/page?t=fleet")
    assert first.preview(url, subresources="false").header("x-cache") == "miss"
    shared = second.preview(url, subresources="false")
    assert shared.status == 200 and shared.header("x-cache") == "fleet"
    assert shared.json["title"] == "Fixture Page"
    assert server.hits("/page?t=fleet") == 1
    assert second.metrics()['linkpeek_cache_hits_total{level="fleet"}'] == 1


# ---------------------------------------------------------------- /metrics

def test_metrics_move_by_exact_amounts(service, server):
    s = service()
    before = s.metrics()
    assert before["linkpeek_origin_requests_total"] == 0
    url = server.url("/page?t=metrics")
    miss = s.preview(url, subresources="false")
    hits = [s.preview(url, subresources="false") for _ in range(2)]
    bad = s.get("/v1/preview", {"url": url, "timeout": "-1"})
    assert miss.status == 200 and [h.status for h in hits] == [200, 200] and bad.status == 400
    after = s.metrics()
    assert after['linkpeek_http_requests_total{endpoint="preview",code="200"}'] == 3
    assert after['linkpeek_http_requests_total{endpoint="preview",code="400"}'] == 1
    assert after['linkpeek_http_requests_total{endpoint="metrics",code="200"}'] == 1
    assert after['linkpeek_http_request_duration_seconds_count{endpoint="preview"}'] == 4
    assert after['linkpeek_cache_hits_total{level="memory"}'] == 2
    assert after['linkpeek_cache_hits_total{level="disk"}'] == 0
    assert after["linkpeek_origin_requests_total"] == 1
    assert after["linkpeek_joined_fetches_total"] == 0
    assert after["linkpeek_origin_bytes_read_total"] == miss.json["bytesRead"]
    assert after["linkpeek_http_requests_in_flight"] == 0
    assert after["linkpeek_http_queue_depth"] == 0
    assert after["linkpeek_redis_up"] == -1
    assert server.hits("/page?t=metrics") == 1


def test_access_log_has_the_host_only(service, server):
    s = service()
    s.preview(server.url("/page?secret=hunter2"), subresources="false")
    s.terminate(timeout=20)
    log = bytes(s.stderr).decode()
    lines = [line for line in log.splitlines() if "linkpeek.http.access" in line]
    assert len(lines) == 1, log
    assert "GET /v1/preview 200 host=127.0.0.1" in lines[0]
    assert "hunter2" not in log


# ---------------------------------------------------------------- the OpenAPI document

def test_openapi_document_is_complete():
    import jsonschema

    doc = openapi_check.document()
    assert doc["openapi"] == "3.1.0"
    assert set(doc["paths"]) == {"/v1/preview", "/v1/oembed", "/v1/image", "/healthz", "/readyz", "/metrics"}
    for name, schema in doc["components"]["schemas"].items():
        jsonschema.Draft202012Validator.check_schema(schema)
    for path, item in doc["paths"].items():
        assert set(item) == {"get"}, path
        for status, response in item["get"]["responses"].items():
            assert status.isdigit(), (path, status)
            assert openapi_check.resolve(response)["description"], (path, status)
    text = json.dumps(doc)
    for ref in set(re.findall(r'"\$ref": "(#/[^"]+)"', text)):
        openapi_check.resolve({"$ref": ref})
    # The statuses the service answers on /v1/preview, every one documented.
    assert set(doc["paths"]["/v1/preview"]["get"]["responses"]) == {
        "200", "304", "400", "401", "403", "404", "410", "414", "429", "502", "503", "504"}
