"""Keeping connections when a fetch stops early.

A page whose head gives every field the rules use ends the transfer at
`</head>`. When the rest of the response is small and its length known, the
engine reads it to the end so the connection can carry the next request;
when the rest is large it closes the connection as before. The server counts
connections by the client's port.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import select
import subprocess
import threading
import time
import zlib

import pytest

from fixture_server import ClientGone, FixtureServer

KiB = 1024
FETCHES = 8
# The main fields only: the fetch reads on into the body for a byline or a
# date (at most `PageConsumer.evidenceWindowBytes` without a sign of one).
MAIN_HEAD = (b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Kept</title>'
             b'<meta name="description" content="A page whose head has the main fields.">'
             b'<meta property="og:image" content="/img.png"></head><body>')
# Every field the rules could still find in a body: the fetch stops at </head>.
HEAD = MAIN_HEAD.replace(b"</head>", b'<meta property="og:site_name" content="Kept Site">'
                         b'<meta name="author" content="Ann Writer">'
                         b'<meta property="article:published_time" content="2026-01-02T03:04:05Z">'
                         b'<meta property="og:video" content="/clip.mp4"></head>')


def body(size: int, head: bytes = HEAD) -> bytes:
    filler = b"<p>" + b"lorem ipsum dolor sit amet " * 40 + b"</p>\n"
    return (head + filler * (size // len(filler) + 1))[:size]


@pytest.fixture
def counting_server():
    """A fixture server of the test's own whose pages record the client port of each request, and whose
    stalled pages record, in `server.events`, when each request came and when its client closed it."""
    server = FixtureServer().start()
    ports: list[int] = []
    server.events = []
    server.accepted = []
    lock = threading.Lock()

    def page(h, path, q):
        with lock:
            ports.append(h.client_address[1])
            server.events.append(("request", q("n")))
        size = int(q("size", "0"))
        if q("stall"):
            # The head and a little body, then nothing: the promised rest never comes.
            data = body(size, MAIN_HEAD if q("main") else HEAD)
            h.send_response(200)
            h.send_header("Content-Type", "text/html; charset=utf-8")
            h.send_header("Content-Length", str(len(data) + 20 * KiB))
            h.end_headers()
            h.wfile.write(data)
            h.wfile.flush()
            h.close_connection = True
            try:
                h.wait_or_client_gone(30)
            except ClientGone:
                with lock:
                    server.events.append(("closed", q("n")))
            return
        if q("gz"):
            # Letters at random after the head: they compress to about 60%,
            # so the compressed rest is about 0.6 × (size − head).
            with lock:
                server.accepted.append(h.headers.get("Accept-Encoding"))
            rng = random.Random(int(q("n", "0")))
            data = HEAD + bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz ") for _ in range(size - len(HEAD)))
            if q("gz") == "raw":
                h.send(200, zlib.compress(data)[2:-4], headers={"Content-Encoding": "deflate"})
                return
            h.send(200, gzip.compress(data, mtime=0), headers={"Content-Encoding": "gzip"})
            return
        h.send(200, body(size))

    server.add_route("/kept", page)
    try:
        yield server, ports
    finally:
        server.stop()


def fetch_all(run_cli, server, size: int, extra: str = "") -> tuple:
    urls = "".join(server.url(f"/kept?size={size}&n={i}{extra}") + "\n" for i in range(FETCHES))
    res = run_cli("fetch", "--stdin", "--concurrency", "1", "--no-subresources", "--allow-private-network",
                  "--no-cache", stdin=urls, timeout=60)
    assert res.returncode == 0, res.describe()
    assert len(res.objects) == FETCHES, res.describe()
    for m in res.objects:
        assert m["title"] == "Kept", res.describe()
    return res


def test_small_rest_is_read_and_the_connection_kept(run_cli, counting_server):
    server, ports = counting_server
    # 40 KiB pages: the fetch stops at </head>, 16–40 KiB before the end.
    res = fetch_all(run_cli, server, 40 * KiB)
    # Each multi loop (at most four) keeps its connection; without the
    # drain every fetch would open its own.
    assert len(ports) == FETCHES
    assert len(set(ports)) <= 4, f"{len(set(ports))} connections for {FETCHES} fetches\n{res.describe()}"
    # What was read for the preview stays what the preview needed.
    for m in res.objects:
        assert m["bytesRead"] < 40 * KiB, res.describe()


def test_large_rest_closes_the_connection(run_cli, counting_server):
    server, ports = counting_server
    # 600 KiB pages: the rest is far past the drain limit, so each stop closes.
    res = fetch_all(run_cli, server, 600 * KiB)
    assert len(set(ports)) == FETCHES, f"{len(set(ports))} connections for {FETCHES} fetches\n{res.describe()}"
    for m in res.objects:
        assert m["bytesRead"] < 200 * KiB, res.describe()


@pytest.mark.parametrize("coding", ["1", "raw"])
def test_an_encoded_rest_is_drained_without_inflating(run_cli, counting_server, coding):
    server, ports = counting_server
    # The fetch stops at </head> and reads the rest as sent, never inflated,
    # so an encoded rest is drained up to the 64 KiB of an unencoded one
    # (`Transfer.encodedDrainBytes`): about 40 KiB left compressed, read,
    # and the connections kept.
    res = fetch_all(run_cli, server, 70 * KiB, f"&gz={coding}")
    assert len(ports) == FETCHES
    assert len(set(ports)) <= 4, f"{len(set(ports))} connections for {FETCHES} fetches\n{res.describe()}"
    assert server.accepted == ["gzip, deflate"] * FETCHES, server.accepted
    for m in res.objects:
        # The drained rest is not counted: what was read is the head's step.
        assert m["bytesRead"] <= 16 * KiB, res.describe()
    ports.clear()
    # About 120 KiB left compressed: past the limit, each stop closes its connection.
    res = fetch_all(run_cli, server, 200 * KiB, f"&gz={coding}")
    assert len(set(ports)) == FETCHES, f"{len(set(ports))} connections for {FETCHES} fetches\n{res.describe()}"


def fetch_stalled(run_cli, server, count: int, extra: str = ""):
    """`count` 4 KiB pages whose server then stalls, one at a time, with a 10 s timeout: all answered with their title."""
    urls = "".join(server.url(f"/kept?size={4 * KiB}&stall=1&n={i}{extra}") + "\n" for i in range(count))
    res = run_cli("fetch", "--stdin", "--concurrency", "1", "--no-subresources", "--allow-private-network",
                  "--no-cache", "--timeout", "10", stdin=urls, timeout=60)
    assert res.returncode == 0, res.describe()
    assert [m["title"] for m in res.objects] == ["Kept"] * count, res.describe()
    return res


def results_as_they_come(linkpeek_bin, server, count: int) -> list:
    """Runs the stalled fetches of `fetch_stalled`, reading each result line as it is written; returns, per
    result, its title and the server's events at that moment."""
    # A last page held at the server until every stalled result is read: the
    # process stays alive meanwhile, so a stalled connection can be closed
    # only by the drain giving up, never by the process's exit.
    urls = "".join(server.url(f"/kept?size={4 * KiB}&stall=1&n={i}") + "\n" for i in range(count))
    urls += server.url("/held?key=after-the-stalled") + "\n"
    proc = subprocess.Popen([linkpeek_bin, "fetch", "--stdin", "--concurrency", "1", "--no-subresources",
                             "--allow-private-network", "--no-cache", "--timeout", "10"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seen = []
    try:
        proc.stdin.write(urls.encode())
        proc.stdin.close()
        buffered = b""
        deadline = time.monotonic() + 60  # a hang bound
        while len(seen) < count and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 1)
            if not ready:
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            buffered += chunk
            while b"\n" in buffered:
                line, buffered = buffered.split(b"\n", 1)
                seen.append((json.loads(line).get("title"), list(server.events)))
        server.release("after-the-stalled")
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    return seen


def test_a_stalled_rest_does_not_hold_the_result(linkpeek_bin, counting_server):
    server, ports = counting_server
    # The server promises 20 KiB more and never sends it: each result comes at
    # the stop, while its connection is still open, not after the drain gives
    # up (1 s, which closes it) or the timeout (10 s). An order, not a time.
    seen = results_as_they_come(linkpeek_bin, server, 3)
    assert [title for title, _ in seen] == ["Kept"] * 3, seen
    for n, (_, events) in enumerate(seen):
        assert ("request", str(n)) in events and ("closed", str(n)) not in events, \
            f"result {n} came only after its connection was given up: {events}"
    # A drain given up closes its connection: none of them is used twice.
    assert len(set(ports)) == 3, ports


def test_a_stalled_body_after_the_main_fields_ends_at_the_settle_time(run_cli, counting_server):
    server, ports = counting_server
    # The head gives title, summary and image but no byline or date, so the
    # fetch reads on into the body; the body stalls after 4 KiB. The reading
    # past the main fields is optional: it ends after the settle time (1 s,
    # `Transfer.settleMilliseconds`) with the head's fields, not with a
    # timeout error after 10 s.
    res = fetch_stalled(run_cli, server, 2, "&main=1")
    # A timeout would be an error object (exit 1), not the head's fields.
    assert [m["summary"] for m in res.objects] == ["A page whose head has the main fields."] * 2, res.describe()
    assert all("error" not in m for m in res.objects), res.describe()
    # The reading went on past the main fields until the settle time gave up on it: the client closed
    # each stalled connection itself (the server never ends them), one after the other.
    assert server.events == [("request", "0"), ("closed", "0"), ("request", "1"), ("closed", "1")], server.events
