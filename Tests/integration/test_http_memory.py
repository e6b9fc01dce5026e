"""`serve --http` answering a fresh preview from memory inside the
connection's pipeline (`MemoryAnswers`): the same bytes as the answer
Hummingbird's path makes (headers but `Date`, body), `If-None-Match` and
`HEAD`, the token and the per-client limit applied first, pipelined
requests answered in order, and the answers counted in `/metrics` and the
access log. `linkpeek_http_memory_answers_total` tells which path answered:
a request behind another one still being answered on its connection is
passed on, which is how these tests get the other path's bytes."""

from __future__ import annotations

import re
import socket
import time
import urllib.parse

import pytest

from http_service import HTTPService, seconds_until_cut

MEMORY = "linkpeek_http_memory_answers_total"


@pytest.fixture
def service(linkpeek_bin, tmp_path):
    started = []

    def start(*flags, host="127.0.0.1"):
        cache = tmp_path / f"cache{len(started)}"
        cache.mkdir()
        s = HTTPService(linkpeek_bin, ["--http", f"{host}:0", "--cache-dir", str(cache), "--allow-private-network",
                                       *flags]).start()
        started.append(s)
        return s

    yield start
    for s in started:
        s.kill()


class Raw:
    """One kept-alive connection, written and read as bytes (requests may be pipelined)."""

    def __init__(self, s: HTTPService):
        self.sock = socket.create_connection((s.host, s.port), timeout=30)
        self.file = self.sock.makefile("rb")

    def send(self, *requests: bytes):
        self.sock.sendall(b"".join(requests))

    def read(self, method: str = "GET") -> tuple[bytes, dict, bytes]:
        """(head bytes, headers by lower-case name, body) of the next response."""
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            line = self.file.readline()
            assert line, f"the connection closed after {head!r}"
            head += line
        headers = {}
        for line in head.split(b"\r\n")[1:]:
            if line:
                name, _, value = line.partition(b":")
                headers[name.decode().lower()] = value.strip().decode()
        status = int(head.split(b" ")[1])
        length = 0 if method == "HEAD" or status == 304 else int(headers.get("content-length", "0"))
        body = self.file.read(length) if length else b""
        return head, headers, body

    def close(self):
        self.file.close()
        self.sock.close()


def request(path: str, method: str = "GET", headers: dict | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"] + [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def preview_path(url: str, **params) -> str:
    return "/v1/preview?" + urllib.parse.urlencode({"url": url, **params})


def without_date(head: bytes) -> bytes:
    return re.sub(rb"\r\n[Dd]ate: [^\r]*", b"", head)


def cached(s: HTTPService, server, name: str) -> str:
    """A page's URL, fetched once so that memory holds its preview."""
    url = server.url(f"/page?t={name}")
    first = s.preview(url, subresources="false")
    assert first.status == 200 and first.header("x-cache") == "miss", first.body
    return url


def behind_a_held_request(s: HTTPService, server, *requests: bytes) -> list:
    """`requests` pipelined behind one whose page the fixture server holds: Hummingbird's path answers them.
    Returns the responses after the held one's."""
    run = f"held-{time.monotonic_ns()}"
    raw = Raw(s)
    try:
        raw.send(request(preview_path(server.url(f"/held?key={run}&title=held"), subresources="false")), *requests)
        assert server.wait_in_flight(run, 1, 20), "the held page never reached the server"
        server.release(run)
        held = raw.read()
        assert held[1]["x-cache"] == "miss" and b'"held"' in held[2]
        return [raw.read(method=r.split(b" ")[0].decode()) for r in requests]
    finally:
        raw.close()


def test_memory_answer_is_the_same_bytes_as_the_other_path(service, server):
    s = service()
    url = cached(s, server, "same-bytes")
    path = preview_path(url, subresources="false")
    before = s.metrics()[MEMORY]
    raw = Raw(s)
    raw.send(request(path))
    fast = raw.read()
    raw.close()
    assert s.metrics()[MEMORY] == before + 1
    (slow,) = behind_a_held_request(s, server, request(path))
    assert s.metrics()[MEMORY] == before + 1, "the request behind the held one was answered in the pipeline"
    assert fast[0].startswith(b"HTTP/1.1 200 OK\r\n")
    assert fast[1]["x-cache"] == "hit" and fast[1]["content-type"] == "application/json"
    assert re.fullmatch(r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT", fast[1]["date"]), fast[1]
    assert re.fullmatch(r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT", slow[1]["date"]), slow[1]
    # The same second or the next: max-age may differ by one, nothing else.
    same_age = re.sub(rb"max-age=\d+", b"max-age=N", without_date(fast[0]))
    assert same_age == re.sub(rb"max-age=\d+", b"max-age=N", without_date(slow[0]))
    assert fast[2] == slow[2] and b'"fromCache":true' in fast[2]


def test_if_none_match_and_head_from_memory(service, server):
    s = service()
    url = cached(s, server, "conditional")
    path = preview_path(url, subresources="false")
    before = s.metrics()[MEMORY]
    raw = Raw(s)
    raw.send(request(path))
    full = raw.read()
    etag = full[1]["etag"]
    raw.send(request(path, headers={"If-None-Match": etag}))
    not_modified = raw.read()
    raw.send(request(path, headers={"If-None-Match": '"0000000000000000", W/' + etag}))
    weak = raw.read()
    raw.send(request(path, "HEAD"))
    head = raw.read("HEAD")
    # The connection is still in step: no body was sent after the HEAD answer.
    raw.send(request(path, headers={"If-None-Match": '"0000000000000000"'}))
    after = raw.read()
    raw.close()
    assert s.metrics()[MEMORY] == before + 5
    assert not_modified[0].startswith(b"HTTP/1.1 304 Not Modified\r\n") and not_modified[2] == b""
    assert not_modified[1]["etag"] == etag and not_modified[1]["x-cache"] == "hit"
    assert weak[0].startswith(b"HTTP/1.1 304 ")
    assert head[0].startswith(b"HTTP/1.1 200 OK\r\n")
    assert re.sub(rb"max-age=\d+", b"", without_date(head[0])) == re.sub(rb"max-age=\d+", b"", without_date(full[0]))
    assert after[0].startswith(b"HTTP/1.1 200 OK\r\n") and after[2] == full[2]
    # Hummingbird's path answers the same three the same way.
    slow = behind_a_held_request(s, server, request(path, headers={"If-None-Match": etag}), request(path, "HEAD"))
    assert s.metrics()[MEMORY] == before + 5
    # A later second, maybe: max-age may be less by one, nothing else differs.
    assert re.sub(rb"max-age=\d+", b"", without_date(slow[0][0])) == re.sub(rb"max-age=\d+", b"", without_date(not_modified[0]))
    assert re.sub(rb"max-age=\d+", b"", without_date(slow[1][0])) == re.sub(rb"max-age=\d+", b"", without_date(head[0]))


def test_tokens_apply_before_memory(service, server, tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("the-secret\n")
    s = service("--http-token-file", str(tokens))
    url = server.url("/page?t=memory-tokens")
    good = {"Authorization": "Bearer the-secret"}
    assert s.preview(url, subresources="false", headers=good).status == 200
    for headers in ({}, {"Authorization": "Bearer the-secre"}, {"Authorization": "Bearer the-secret2"},
                    {"Authorization": "Basic dGhlLXNlY3JldA=="}):
        reply = s.preview(url, subresources="false", headers=headers)
        assert reply.status == 401 and reply.header("www-authenticate") == "Bearer", headers
        assert b"the-secret" not in reply.body
    hit = s.preview(url, subresources="false", headers=good)
    assert hit.status == 200 and hit.header("x-cache") == "hit"
    text = s.get("/metrics", headers=good).body.decode()
    assert f"{MEMORY} 1" in text.splitlines(), text
    assert 'linkpeek_http_requests_total{endpoint="preview",code="401"} 4' in text.splitlines()
    assert server.hits("/page?t=memory-tokens") == 1


def test_the_client_limit_applies_before_memory(service, server):
    s = service("--http-client-rate", "3")
    url = cached(s, server, "memory-limit")
    statuses = [s.preview(url, subresources="false").status for _ in range(4)]
    # The burst is 3: the miss above took one, two hits, then the limit (within a second nothing refills).
    assert statuses[:2] == [200, 200]
    assert statuses[2:] == [429, 429]
    time.sleep(1.1)
    metrics = s.metrics()
    assert metrics[MEMORY] == 2
    assert metrics["linkpeek_http_client_limited_total"] == 2
    assert metrics['linkpeek_http_requests_total{endpoint="preview",code="429"}'] == 2


def test_pipelined_requests_are_answered_in_order(service, server):
    s = service()
    urls = [cached(s, server, f"pipelined-{i}") for i in range(3)]
    before = s.metrics()[MEMORY]
    run = f"pipelined-held-{time.monotonic_ns()}"
    held = server.url(f"/held?key={run}&title=held-in-line")
    sequence = [
        ("hit", request(preview_path(urls[0], subresources="false"))),
        ("hit", request(preview_path(urls[1], subresources="false"))),
        ("held", request(preview_path(held, subresources="false"))),
        ("hit", request(preview_path(urls[2], subresources="false"))),
        ("healthz", request("/healthz")),
        ("hit", request(preview_path(urls[0], subresources="false"), "HEAD")),
        ("hit", request(preview_path(urls[1], subresources="false"))),
    ]
    raw = Raw(s)
    raw.send(*(r for _, r in sequence))
    assert server.wait_in_flight(run, 1, 20), "the held page never reached the server"
    server.release(run)
    replies = [raw.read(r.split(b" ")[0].decode()) for _, r in sequence]
    # Requests after these, once nothing is in flight, are answered from memory again, in order.
    raw.send(*(request(preview_path(u, subresources="false")) for u in urls))
    again = [raw.read() for _ in urls]
    raw.close()
    assert [r[2] for r in replies[:2]] == [s.preview(u, subresources="false").body for u in urls[:2]]
    assert b'"held-in-line"' in replies[2][2] and replies[2][1]["x-cache"] == "miss"
    assert replies[3][2] == s.preview(urls[2], subresources="false").body
    assert replies[4][2] == b'{"status":"ok"}'
    assert replies[5][2] == b"" and replies[5][1]["content-length"] == replies[0][1]["content-length"]
    assert replies[6][2] == replies[1][2]
    assert [r[2] for r in again] == [replies[0][2], replies[1][2], replies[3][2]]
    # The two before the held request, the three sent once nothing was in flight, and the three asked for
    # comparison above; the ones behind the held request were passed on.
    assert s.metrics()[MEMORY] - before == 2 + 3 + 3


def test_memory_answers_are_counted_and_logged(service, server):
    s = service()
    url = cached(s, server, "memory-counted?secret=hunter2")
    before = s.metrics()
    raw = Raw(s)
    path = preview_path(url, subresources="false")
    raw.send(request(path), request(path), request(path, "HEAD"))
    replies = [raw.read(), raw.read(), raw.read("HEAD")]
    raw.close()
    assert [r[1]["x-cache"] for r in replies] == ["hit"] * 3
    after = s.metrics()
    assert after[MEMORY] - before[MEMORY] == 3
    assert after['linkpeek_http_requests_total{endpoint="preview",code="200"}'] - \
        before['linkpeek_http_requests_total{endpoint="preview",code="200"}'] == 3
    assert after['linkpeek_http_request_duration_seconds_count{endpoint="preview"}'] - \
        before['linkpeek_http_request_duration_seconds_count{endpoint="preview"}'] == 3
    assert after['linkpeek_cache_hits_total{level="memory"}'] - before['linkpeek_cache_hits_total{level="memory"}'] == 3
    assert after["linkpeek_http_requests_in_flight"] == 0
    s.terminate(timeout=20)
    log = bytes(s.stderr).decode()
    lines = [line for line in log.splitlines() if "linkpeek.http.access" in line and "/v1/preview" in line]
    assert len(lines) == 4, log
    assert sum("GET /v1/preview 200 host=127.0.0.1" in line for line in lines) == 3
    assert sum("HEAD /v1/preview 200 host=127.0.0.1" in line for line in lines) == 1
    assert all("client=127.0.0.1" in line for line in lines)
    assert "hunter2" not in log


def test_a_slow_request_after_a_memory_answer_is_cut(service, server):
    """The answer written in the pipeline starts the next request's header deadline, as `Front`'s do."""
    s = service("--http-request-timeout", "1")
    url = cached(s, server, "memory-then-slow")
    before = s.metrics()[MEMORY]
    raw = Raw(s)
    try:
        raw.send(request(preview_path(url, subresources="false")))
        assert raw.read()[1]["x-cache"] == "hit"
        answered = time.monotonic()
        raw.send(b"GET /healthz HTTP/1.1\r\n")
        closed_after = seconds_until_cut(
            raw.sock, answered, [b"Host: x\r\n", b"X-A: 1\r\n", b"X-B: 2\r\n", b"X-C: 3\r\n", b"X-D: 4\r\n", b"X-E: 5\r\n"])
    finally:
        raw.close()
    assert 0.9 <= closed_after <= 2.5
    assert s.metrics()[MEMORY] == before + 1
