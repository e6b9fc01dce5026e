"""Fleet mode (issue 23): daemons sharing one Redis — one cache, one origin
fetch per URL, one request rate per host — and Redis failing never failing a
request. Each test starts its own `redis-server` on a free loopback port
(redis_fixture.py) and its own counting origin, and stops both by pid."""

from __future__ import annotations

import http.server
import json
import os
import re
import threading
import time
from concurrent.futures import wait as wait_futures

import pytest

from conftest import run_process
from linkpeek_client import LinkPeekError
from redis_fixture import own_redis



@pytest.fixture
def redis(tmp_path):
    with own_redis(tmp_path, "the fleet tests need their own Redis") as server:
        yield server


class Origin:
    """A loopback origin that answers `/p/<name>` slowly (`delay` seconds) with
    a page titled after it, and records every request with its server-side time."""

    def __init__(self, delay: float = 0.3):
        self.delay = delay
        self.lock = threading.Lock()
        self.requests: list[tuple[float, str]] = []
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                with origin.lock:
                    origin.requests.append((time.monotonic(), self.path))
                name = self.path.rsplit("/", 1)[-1]
                if self.path.startswith("/slow/"):
                    time.sleep(20)
                elif self.path.startswith("/gone/"):
                    try:
                        self.send_response(404)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                    except OSError:
                        pass
                    return
                else:
                    time.sleep(origin.delay)
                body = (f"<!doctype html><html><head><title>Fleet page {name}</title>"
                        f"<link rel=icon href='data:image/gif;base64,R0lGODlhAQABAAAAACw='>"
                        f"</head><body><p>{name}</p></body></html>").encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.send_header("Cache-Control", "max-age=86400")
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "Origin":
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def url(self, name) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/p/{name}"

    def paths(self) -> list[str]:
        with self.lock:
            return [path for _, path in self.requests]

    def times(self) -> list[float]:
        with self.lock:
            return sorted(t for t, _ in self.requests)


def daemons(make_client, redis, count, rate=10_000, timeout=60):
    return [make_client(args=("--fleet", redis.url, "--fleet-origin-rate", str(rate)), timeout=timeout)
            for _ in range(count)]


def fetch_all(clients, urls, timeout=30.0, on_done=None):
    """Sends every fetch at once, spread over `clients`; returns [(url, result or exception)]."""
    futures = []
    for i, url in enumerate(urls):
        fut = clients[i % len(clients)].fetch_async(url, timeout=timeout)
        if on_done:
            fut.add_done_callback(on_done)
        futures.append((url, fut))
    done, pending = wait_futures([f for _, f in futures], timeout=timeout + 30)
    assert not pending, f"{len(pending)} fetches got no answer within {timeout + 30}s"
    out = []
    for url, fut in futures:
        try:
            out.append((url, fut.result(timeout=0)))
        except LinkPeekError as e:
            out.append((url, e))
    return out


def assert_all_answered(results, title_of):
    failed = [(url, str(r)) for url, r in results if isinstance(r, Exception)]
    assert not failed, f"{len(failed)} of {len(results)} requests failed, e.g. {failed[:3]}"
    wrong = [(url, r.get("title")) for url, r in results if r.get("title") != title_of(url)]
    assert not wrong, f"wrong titles: {wrong[:5]}"


def title_of(url: str) -> str:
    return "Fleet page " + url.rsplit("/", 1)[-1]


def entry_keys(redis) -> list[bytes]:
    return redis.command("KEYS", "linkpeek:v1:entry:*")


def test_one_origin_fetch_per_url_across_four_daemons(make_client, redis):
    with Origin(delay=0.3) as origin:
        clients = daemons(make_client, redis, 4)
        urls = [origin.url(f"u{i % 50}") for i in range(2000)]
        results = fetch_all(clients, urls)
        assert_all_answered(results, title_of)
        paths = origin.paths()
        assert len(paths) == 50, f"{len(paths)} origin requests for 50 URLs: " \
            f"{sorted(p for p in set(paths) if paths.count(p) > 1)[:10]} more than once"
        assert sorted(set(paths)) == sorted(f"/p/u{i}" for i in range(50))
        assert len(entry_keys(redis)) == 50
        assert redis.command("KEYS", "linkpeek:v1:lock:*") == []


def test_get_cached_and_hover_answer_from_the_fleet(make_client, redis, run_cli):
    with Origin(delay=0) as origin:
        first, second = daemons(make_client, redis, 2)
        url = origin.url("shared")
        assert first.fetch(url)["title"] == "Fleet page shared"
        cached = second.get_cached(url)
        assert cached is not None and cached["title"] == "Fleet page shared" and cached["fromCache"] is True
        uri = "file:///tmp/fleet-notes.md"
        other = origin.url("hovered")
        first.fetch(other)
        second.did_open(uri, f"see {other} here\n")
        hover = second.hover(uri, 0, 8)
        assert hover is not None and "Fleet page hovered" in json.dumps(hover)
        assert origin.paths() == ["/p/shared", "/p/hovered"]
        stats = run_cli("fleet", "stats", "--fleet", redis.url, "--json")
        # Misses: the first daemon's two fetches; hits: the second's getCached and hover.
        assert (stats.one["hits"], stats.one["misses"], stats.one["locksHeld"]) == (2, 2, 0), stats.describe()


def test_redis_killed_in_the_middle_fails_no_request(make_client, redis):
    with Origin(delay=0.05) as origin:
        clients = daemons(make_client, redis, 4)
        urls = [origin.url(f"k{i % 250}") for i in range(1000)]
        answered = []
        killed = threading.Event()

        def on_done(_):
            answered.append(1)
            if len(answered) == 300 and not killed.is_set():
                killed.set()
                threading.Thread(target=redis.kill, daemon=True).start()

        results = fetch_all(clients, urls, on_done=on_done)
        assert killed.is_set(), "Redis was never killed: the test did not test anything"
        assert redis.proc.poll() is not None
        assert_all_answered(results, title_of)
        # A fetch of a new page asks Redis once more in each daemon: with the
        # cache lookups off the dispatcher, a daemon may have answered all its
        # fetches before Redis went.
        for n, client in enumerate(clients):
            url = origin.url(f"after{n}")
            assert client.fetch(url)["title"] == title_of(url)
        # stderr is read by a thread of its own: the line may come in just after the last answer.
        def down_lines(client):
            return [line for line in client.stderr_tail if "fleet:" in str(line) and "unavailable" in str(line)]

        for client in clients:
            deadline = time.monotonic() + 5
            while not down_lines(client) and time.monotonic() < deadline:
                time.sleep(0.05)
            lines = down_lines(client)
            assert len(lines) == 1, f"not one line about Redis being down: {lines}"


def test_origin_rate_is_shared_by_the_fleet(make_client, redis, run_cli):
    rate = 20
    with Origin(delay=0) as origin:
        clients = daemons(make_client, redis, 4, rate=rate)
        urls = [origin.url(f"r{i}") for i in range(120)]
        results = fetch_all(clients, urls, timeout=30)
        assert_all_answered(results, title_of)
        times = origin.times()
        assert len(times) == 120
        # Server-side times: no one-second window holds more than rate + burst requests.
        busiest = max(sum(1 for t in times[i:] if t - start < 1.0) for i, start in enumerate(times))
        assert busiest <= rate + rate, f"{busiest} requests in one second (limit {rate} + burst {rate})"
        stats = run_cli("fleet", "stats", "--fleet", redis.url, "--json")
        assert stats.returncode == 0, stats.describe()
        assert stats.one["hostsThrottled"] == ["127.0.0.1"]
        assert stats.one["locksHeld"] == 0


def test_flushed_and_restarted_redis(make_client, redis):
    with Origin(delay=0.05) as origin:
        clients = daemons(make_client, redis, 2)
        batch = [origin.url(f"f{i % 100}") for i in range(300)]
        answered = []

        def flush_midway(_):
            answered.append(1)
            if len(answered) == 100:
                threading.Thread(target=redis.command, args=("FLUSHALL",), daemon=True).start()

        assert_all_answered(fetch_all(clients, batch, on_done=flush_midway), title_of)

        restarted = threading.Event()

        def restart_midway(_):
            answered.append(1)
            if len(answered) == 400 and not restarted.is_set():
                restarted.set()

                def restart():
                    redis.kill()
                    redis.start()
                threading.Thread(target=restart, daemon=True).start()

        batch = [origin.url(f"g{i % 100}") for i in range(300)]
        assert_all_answered(fetch_all(clients, batch, on_done=restart_midway), title_of)
        assert restarted.is_set()
        # Back in use within the backoff (≤ 10 s): a new fetch is shared again.
        deadline = time.monotonic() + 15
        shared = False
        while time.monotonic() < deadline and not shared:
            name = f"after{int(time.monotonic() * 1000)}"
            clients[0].fetch(origin.url(name))
            shared = any(key.endswith(f"/p/{name}".encode()) for key in entry_keys(redis))
            time.sleep(0.2)
        assert shared, "the daemons did not use the restarted Redis within 15 s"


def test_corrupt_entry_is_ignored_said_and_overwritten(make_client, redis):
    with Origin(delay=0) as origin:
        [first] = daemons(make_client, redis, 1)
        url = origin.url("corrupt")
        assert first.fetch(url)["title"] == "Fleet page corrupt"
        [key] = entry_keys(redis)
        good = redis.command("GET", key)
        assert good.startswith(b"LPF1")
        damages = [(b"not an entry", "not a fleet entry"),
                   (good[:4] + b"\xff\xff\xff\x00" + good[8:], "does not decompress to its size"),
                   (good[:-5], "does not decompress to its size")]
        for damaged, damage in damages:
            redis.command("SET", key, damaged)
            # A daemon of its own for each, so that its local levels do not answer first.
            reader = make_client(args=("--fleet", redis.url, "--fleet-origin-rate", "10000", "--log-level", "info"),
                                 timeout=60)
            assert reader.fetch(url)["title"] == "Fleet page corrupt"
            rewritten = redis.command("GET", key)
            assert rewritten != damaged and rewritten.startswith(b"LPF1")
            # Said at info with the key and the damage; stderr is read on a thread of its own, so the line may
            # come just after the answer (bounded wait).
            expected = (f"linkpeek info: fleet entry unreadable; ignored error={damage} "
                        f"key={key[len(b'linkpeek:v1:entry:'):].decode()}")
            deadline = time.monotonic() + 5
            while expected not in reader.stderr_tail and time.monotonic() < deadline:
                time.sleep(0.05)
            assert expected in reader.stderr_tail, list(reader.stderr_tail)
        # Each damaged entry made its reader fetch.
        assert origin.paths() == ["/p/corrupt"] * 4


def test_lock_released_on_cancel(make_client, redis):
    with Origin() as origin:
        [client] = daemons(make_client, redis, 1)
        url = f"http://127.0.0.1:{origin.httpd.server_address[1]}/slow/cancelled"
        fut = client.fetch_async(url, provider_id="slow-one", timeout=30)
        deadline = time.monotonic() + 5
        locks = []
        while time.monotonic() < deadline and not locks:
            locks = redis.command("KEYS", "linkpeek:v1:lock:*")
            time.sleep(0.02)
        assert len(locks) == 1, "the fetch never took its lock"
        # Renewed while the fetch runs (every 2 s, back to 10 s): a state to wait for, not a time to
        # sleep to. The remaining lifetime only falls until a renewal puts it back up; an unrenewed lock
        # would expire (PTTL -2) before the bound.
        lowest = first = redis.command("PTTL", locks[0])
        deadline = time.monotonic() + 15
        renewed = False
        while not renewed and time.monotonic() < deadline:
            ttl = redis.command("PTTL", locks[0])
            assert ttl > 0, f"the lock expired or vanished while the fetch ran (PTTL {ttl}, first {first})"
            renewed = ttl > lowest + 500
            lowest = min(lowest, ttl)
            time.sleep(0.02)
        assert renewed, "the lock was not renewed"
        # Far from expiring: only a release can remove it within the next 3 s.
        assert client.cancel("slow-one") == {"cancelled": True}
        with pytest.raises(LinkPeekError) as error:
            fut.result(timeout=10)
        assert error.value.kind == "cancelled"
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and redis.command("EXISTS", locks[0]) == 1:
            time.sleep(0.02)
        assert redis.command("EXISTS", locks[0]) == 0, "the lock outlived the cancelled fetch"


def test_fetch_command_goes_on_when_redis_is_down(fetch, run_cli, tmp_path):
    with Origin(delay=0) as origin:
        with __import__("socket").socket() as s:
            s.bind(("127.0.0.1", 0))
            closed_port = s.getsockname()[1]
        res = fetch(origin.url("alone"), "--fleet", f"redis://127.0.0.1:{closed_port}", "--cache-dir",
                    str(tmp_path / "c"))
        assert res.returncode == 0, res.describe()
        assert res.one["title"] == "Fleet page alone"
        lines = [line for line in res.stderr.splitlines() if "fleet:" in line]
        assert len(lines) == 1 and "unavailable" in lines[0], res.describe()
        stats = run_cli("fleet", "stats", "--fleet", f"redis://127.0.0.1:{closed_port}", "--json", parse=False)
        assert stats.returncode == 1 and stats.stdout == "", stats.describe()
        assert "fleet stats: cannot connect" in stats.stderr, stats.describe()


@pytest.mark.parametrize("flags, field", [
    (("--fleet", "http://127.0.0.1:6379"), "--fleet"),
    (("--fleet", "redis://127.0.0.1"), "--fleet"),
    (("--fleet", "redis://127.0.0.1:0"), "--fleet"),
    (("--fleet", "redis://127.0.0.1:6379/x"), "--fleet"),
    (("--fleet", "redis://127.0.0.1:6379", "--fleet-origin-rate", "0"), "--fleet-origin-rate"),
    (("--fleet", "redis://127.0.0.1:6379", "--fleet-origin-rate", "10001"), "--fleet-origin-rate"),
    (("--fleet", "redis://127.0.0.1:6379", "--fleet-origin-rate", "2.5"), "--fleet-origin-rate"),
])
def test_bad_fleet_flags_are_refused_naming_the_flag(run_cli, flags, field):
    res = run_cli("fetch", "http://127.0.0.1:9/", *flags)
    assert res.returncode == 2, res.describe()
    assert field in res.stderr, res.describe()


@pytest.mark.parametrize("options, field", [
    ({"fleet": "redis://nowhere"}, "initializationOptions.fleet"),
    ({"fleet": 5}, "fleet"),
    ({"fleet": "redis://127.0.0.1:6379", "fleetOriginRate": 0}, "initializationOptions.fleetOriginRate"),
])
def test_bad_fleet_initialization_options(make_client, options, field):
    client = make_client(initialize=False)
    with pytest.raises(LinkPeekError) as error:
        client.request("initialize", {"processId": None, "capabilities": {}, "initializationOptions": options})
    if field:
        assert field in str(error.value)
    # The daemon keeps serving.
    assert client.request("getCached", {"url": "http://127.0.0.1:9/"}) is None


def test_a_vanished_holder_is_taken_over_when_its_lock_expires(make_client, redis):
    with Origin(delay=0) as origin:
        [client] = daemons(make_client, redis, 1)
        url = origin.url("takeover")
        # A holder that took the lock and died: nobody renews or releases it.
        start = time.monotonic()
        assert redis.command("SET", f"linkpeek:v1:lock:{url}", "ghost", "NX", "PX", "1500") == "OK"
        metadata = client.fetch(url, timeout=20)
        assert metadata["title"] == "Fleet page takeover" and not metadata.get("fromCache")
        [(fetched_at, path)] = origin.requests
        assert path == "/p/takeover"
        # The origin was asked only once the ghost's lock had expired.
        assert fetched_at - start >= 1.4, f"fetched {fetched_at - start:.2f}s after the ghost took the lock"
        assert redis.command("KEYS", "linkpeek:v1:lock:*") == []


def mapped_libraries(pid: int) -> str:
    with open(f"/proc/{pid}/maps") as maps:
        return maps.read()


def test_hiredis_is_loaded_only_with_fleet(make_client, redis):
    with Origin(delay=0) as origin:
        alone = make_client()
        assert alone.fetch(origin.url("alone"))["title"] == "Fleet page alone"
        assert "libhiredis" not in mapped_libraries(alone.pid)
        [fleet] = daemons(make_client, redis, 1)
        assert "libhiredis" not in mapped_libraries(fleet.pid), "hiredis loaded before fleet mode was used"
        assert fleet.fetch(origin.url("shared"))["title"] == "Fleet page shared"
        assert "libhiredis" in mapped_libraries(fleet.pid)


def test_failures_are_shared_with_their_lifetime(make_client, redis):
    with Origin(delay=0) as origin:
        first, second = daemons(make_client, redis, 2)
        url = f"http://127.0.0.1:{origin.httpd.server_address[1]}/gone/page"
        for client, from_cache in ((first, None), (second, True)):
            with pytest.raises(LinkPeekError) as error:
                client.fetch(url)
            assert (error.value.reason, error.value.data.get("status")) == ("httpStatus", 404)
            assert error.value.data.get("fromCache") is from_cache
        assert origin.paths() == ["/gone/page"]
        [key] = entry_keys(redis)
        # A 4xx is kept 10 minutes, as in the local cache.
        assert 590_000 < redis.command("PTTL", key) <= 600_000


def test_a_stalled_redis_costs_no_request(make_client, redis):
    """Redis stopped (SIGSTOP: connections open, no replies) and resumed mid-run:
    calls time out after 50 ms, the daemons go on alone, and all are answered."""
    import signal
    with Origin(delay=0.02) as origin:
        clients = daemons(make_client, redis, 2)
        answered = []
        resumed = threading.Event()

        def stall_midway(_):
            answered.append(1)
            if len(answered) == 50:
                os.kill(redis.proc.pid, signal.SIGSTOP)
                threading.Timer(2.0, lambda: (os.kill(redis.proc.pid, signal.SIGCONT), resumed.set())).start()

        results = fetch_all(clients, [origin.url(f"s{i % 100}") for i in range(400)], on_done=stall_midway)
        assert_all_answered(results, title_of)
        assert resumed.wait(10)
        assert redis.command("PING") == "PONG"


def test_reload_fetches_even_when_the_fleet_has_the_url(make_client, redis):
    with Origin(delay=0) as origin:
        first, second = daemons(make_client, redis, 2)
        url = origin.url("reloaded")
        assert first.fetch(url)["title"] == "Fleet page reloaded"
        assert second.fetch(url)["fromCache"] is True
        assert not second.fetch(url, cache_policy="reload").get("fromCache")
        assert origin.paths() == ["/p/reloaded"] * 2


def authed(redis, db: int, *args: str):
    """One command on a connection that sends AUTH and SELECT first (the server requires a password)."""
    import socket
    from redis_fixture import _read_reply
    with socket.create_connection(("127.0.0.1", redis.port), timeout=5) as s:
        reader = s.makefile("rb")
        replies = []
        for cmd in (("AUTH", "s3cret"), ("SELECT", str(db)), args):
            parts = [a.encode() for a in cmd]
            s.sendall(b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts))
            replies.append(_read_reply(reader))
        assert replies[:2] == ["OK", "OK"], replies
        return replies[2]


def test_password_and_database_from_the_fleet_url(make_client, redis):
    """AUTH and SELECT against a server that requires a password: entries land in the URL's database only."""
    assert redis.command("CONFIG", "SET", "requirepass", "s3cret") == "OK"
    with Origin(delay=0) as origin:
        c = make_client(args=("--fleet", f"redis://default:s3cret@127.0.0.1:{redis.port}/3"))
        assert c.fetch(origin.url("authed"))["title"] == title_of("authed")
        assert len(authed(redis, 3, "KEYS", "linkpeek:v1:entry:*")) == 1
        assert authed(redis, 0, "KEYS", "linkpeek:v1:entry:*") == []
