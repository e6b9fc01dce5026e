"""Real networks and test harnesses: the user agent, `--resolve`,
trust (`--cacert`), proxies. Every server is one the test starts on 127.0.0.1;
made-up names like `example.test` are mapped with `--resolve` and never reach DNS."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import assert_error
from fixture_server import FixtureServer
from linkpeek_client import LinkPeekError


@pytest.fixture
def daemon(make_client):
    """daemon(args=(), init_options=None, env=None) -> a started, initialised client; closed and schema-checked after."""
    return lambda args=(), init_options=None, env=None, initialize=True: make_client(
        private=False, args=args, init_options=init_options, env=env, initialize=initialize)


# ------------------------------------------------------------------ user agent (part 6)

def test_default_user_agent_names_linkpeek_version_and_bot_only(server, fetch):
    res = fetch("--no-subresources", server.url("/ua"))
    assert res.returncode == 0, res.describe()
    # No other product's crawler name, and no URL until the project has a real public address. A literal
    # (the version of Settings.version), not one built from the binary's --version, which would agree
    # with a wrong one.
    assert res.one["title"] == "Mozilla/5.0 (compatible; linkpeek/0.1.0; link preview bot)"


# ------------------------------------------------------------------ --resolve (part 3)

LOOPBACK = ["--allow-network", "127.0.0.1/32"]


def test_resolve_maps_a_made_up_name_to_the_local_server(server, fetch):
    url = f"http://example.test:{server.port}/page?title=mapped"
    res = fetch("--no-subresources", "--resolve", f"example.test:{server.port}:127.0.0.1", *LOOPBACK, url,
                private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "mapped"
    assert res.one["url"] == url


def test_resolve_does_not_open_the_address_policy(server, fetch):
    before = server.total_hits()
    res = fetch("--no-subresources", "--resolve", f"example.test:{server.port}:127.0.0.1",
                f"http://example.test:{server.port}/page", private=False)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, reason="blockedAddress", res=res)
    assert server.total_hits() == before


def test_redirects_to_another_name_follow_the_table(server, fetch):
    target = f"http://other.test:{server.port}/page?title=hop"
    start = f"http://example.test:{server.port}/redirect?status=302&to={target}"
    res = fetch("--no-subresources", *LOOPBACK,
                "--resolve", f"example.test:{server.port}:127.0.0.1",
                "--resolve", f"other.test:{server.port}:127.0.0.1", start, private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["url"] == target and res.one["title"] == "hop"
    assert res.one["redirects"] == [{"url": start, "status": 302}]


@pytest.mark.parametrize("entry, says", [
    ("example.test:443", "HOST:PORT:ADDRESS"),
    ("example.test:0:127.0.0.1", "port must be an integer from 1 to 65535"),
    ("example.test:70000:127.0.0.1", "port must be an integer from 1 to 65535"),
    ("example.test:443:localhost", "numeric IPv4 or IPv6 address"),
    ("example.test:443:127.1", "numeric IPv4 or IPv6 address"),
    ("exa mple.test:443:127.0.0.1", "not a plain DNS name"),
])
def test_resolve_syntax_errors_name_the_flag(run_cli, entry, says):
    res = run_cli("fetch", "--resolve", entry, "http://example.test/")
    assert res.returncode == 2, res.describe()
    assert "--resolve" in res.stderr and says in res.stderr, res.describe()


def test_resolve_by_initialization_options(server, daemon):
    c = daemon(args=LOOPBACK, init_options={"resolve": [f"example.test:{server.port}:127.0.0.1"]})
    m = c.fetch(f"http://example.test:{server.port}/page?title=daemon", fetch_subresources=False)
    assert m["title"] == "daemon"


def test_resolve_option_with_bad_syntax_is_refused_naming_the_entry(daemon):
    c = daemon(initialize=False)
    with pytest.raises(LinkPeekError) as e:
        c.request("initialize", {"initializationOptions": {"resolve": ["example.test:1:127.0.0.1", "nope"]}})
    assert e.value.code == -32602 and "initializationOptions.resolve[1]" in e.value.message, e.value.message


# ------------------------------------------------------------------ trust (part 2)

@pytest.fixture(scope="module")
def tls(tmp_path_factory):
    """A test CA and four HTTPS servers on 127.0.0.1, all for the made-up name example.test:
    good (signed by the CA), expired, self-signed, and one whose certificate names other.test."""
    from tls_fixture import TestCA, TLSFixtureServer
    ca = TestCA(tmp_path_factory.mktemp("ca"))
    servers = {
        "good": TLSFixtureServer(*ca.issue(["example.test"])),
        "expired": TLSFixtureServer(*ca.issue(["example.test"], days=-1)),
        "selfsigned": TLSFixtureServer(*ca.self_signed("example.test")),
        "wronghost": TLSFixtureServer(*ca.issue(["other.test"])),
    }
    for s in servers.values():
        s.start()
    yield ca, servers
    for s in servers.values():
        s.stop()


def tls_args(server) -> list:
    return ["--no-subresources", *LOOPBACK, "--resolve", f"example.test:{server.port}:127.0.0.1"]


def test_https_with_a_test_ca_fails_without_cacert_and_says_why(tls, fetch):
    _, servers = tls
    res = fetch(*tls_args(servers["good"]), servers["good"].url("/page?title=tls"), private=False)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, reason="tls", res=res)
    assert "comes from a CA that is not trusted" in res.one["error"]["message"], res.describe()


def test_https_works_with_cacert(tls, fetch):
    ca, servers = tls
    res = fetch(*tls_args(servers["good"]), "--cacert", str(ca.cert), servers["good"].url("/page?title=tls"),
                private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "tls"


def test_https_works_with_capath(tls, fetch, tmp_path):
    ca, servers = tls
    (tmp_path / "ca.pem").write_bytes(ca.cert.read_bytes())
    subprocess.run(["openssl", "rehash", str(tmp_path)], check=True, capture_output=True, timeout=30)
    res = fetch(*tls_args(servers["good"]), "--capath", str(tmp_path), servers["good"].url("/page?title=cap"),
                private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "cap"


def test_https_works_with_ssl_cert_file(tls, linkpeek_bin):
    ca, servers = tls
    env = {**os.environ, "SSL_CERT_FILE": str(ca.cert)}
    cmd = [linkpeek_bin, "fetch", *tls_args(servers["good"]), servers["good"].url("/page?title=env")]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    assert res.returncode == 0, (res.stdout, res.stderr)
    assert json.loads(res.stdout)["title"] == "env"


@pytest.mark.parametrize("which, says", [
    ("expired", "certificate has expired"),
    ("selfsigned", "certificate is self-signed"),
    ("wronghost", "certificate is not for this host name"),
])
def test_tls_failure_names_the_check(tls, fetch, which, says):
    ca, servers = tls
    res = fetch(*tls_args(servers[which]), "--cacert", str(ca.cert), servers[which].url("/page"), private=False)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, reason="tls", res=res)
    assert says in res.one["error"]["message"], res.describe()


def test_missing_cacert_file_is_a_usage_error(run_cli, tmp_path):
    res = run_cli("fetch", "--cacert", str(tmp_path / "nope.pem"), "https://example.test/")
    assert res.returncode == 2 and "--cacert must name an existing file" in res.stderr, res.describe()


def test_ca_file_by_initialization_options(tls, daemon):
    ca, servers = tls
    good = servers["good"]
    c = daemon(args=LOOPBACK, init_options={"caFile": str(ca.cert),
                                            "resolve": [f"example.test:{good.port}:127.0.0.1"]})
    assert c.fetch(good.url("/page?title=opt"), fetch_subresources=False)["title"] == "opt"


def test_missing_ca_path_option_is_refused_naming_it(daemon, tmp_path):
    c = daemon(initialize=False)
    with pytest.raises(LinkPeekError) as e:
        c.request("initialize", {"initializationOptions": {"caPath": str(tmp_path / "none")}})
    assert e.value.code == -32602 and "initializationOptions.caPath" in e.value.message, e.value.message


# ------------------------------------------------------------------ proxies (part 1)

PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture
def proxy():
    from proxy_fixture import CountingProxy
    p = CountingProxy(resolve={"example.test": "127.0.0.1", "other.test": "127.0.0.1"}).start()
    yield p
    p.stop()


def run_with_env(linkpeek_bin, args, **env):
    base = {k: v for k, v in os.environ.items() if k not in PROXY_VARS}
    res = subprocess.run([linkpeek_bin, "fetch", *args], capture_output=True, text=True, timeout=60,
                         env={**base, **env})
    assert res.returncode in (0, 1), (res.returncode, res.stdout, res.stderr)
    return json.loads(res.stdout), res


def test_loopback_target_is_refused_before_the_proxy_sees_a_request(server, proxy, fetch):
    before = server.total_hits()
    res = fetch("--no-subresources", "--proxy", proxy.url(), server.url("/page"), private=False)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, reason="blockedAddress", res=res)
    assert proxy.seen == [] and server.total_hits() == before


def test_a_name_that_resolves_to_loopback_is_refused_before_the_proxy(server, proxy, fetch):
    res = fetch("--no-subresources", "--proxy", proxy.url(), f"http://localhost:{server.port}/page", private=False)
    assert_error(res.one, reason="blockedAddress", res=res)
    assert proxy.seen == []


def test_an_allowed_target_goes_through_the_proxy(server, proxy, fetch):
    url = server.url("/page?title=proxied")
    res = fetch("--no-subresources", "--proxy", proxy.url(), *LOOPBACK, url, private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "proxied"
    assert proxy.seen == [("GET", url)]


def test_https_goes_through_a_connect_tunnel(tls, proxy, fetch):
    ca, servers = tls
    good = servers["good"]
    res = fetch("--no-subresources", "--proxy", proxy.url(), "--cacert", str(ca.cert),
                "--resolve", f"example.test:{good.port}:127.0.0.1", *LOOPBACK, good.url("/page?title=tunnel"),
                private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "tunnel"
    assert proxy.seen == [("CONNECT", f"example.test:{good.port}")]


def test_socks5h_proxy(server, proxy, fetch):
    url = f"http://example.test:{server.port}/page?title=socks"
    res = fetch("--no-subresources", "--proxy", proxy.url("socks5h"), *LOOPBACK,
                "--resolve", f"example.test:{server.port}:127.0.0.1", url, private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "socks"
    assert proxy.seen == [("SOCKS5", f"example.test:{server.port}")]


def test_each_redirect_hop_is_checked_before_the_proxy(server, proxy, fetch):
    # 127.0.0.2 is loopback too, outside the one address allowed: the second hop is refused unsent.
    target = f"http://127.0.0.2:{server.port}/page"
    start = server.url(f"/redirect?status=302&to={target}")
    res = fetch("--no-subresources", "--proxy", proxy.url(), *LOOPBACK, start, private=False)
    assert_error(res.one, reason="blockedAddress", res=res)
    assert proxy.seen == [("GET", start)]


def test_redirects_through_the_proxy_are_followed_and_recorded(server, proxy, fetch):
    url = server.url("/chain?n=3")
    direct = fetch("--no-subresources", *LOOPBACK, url, private=False)
    # --cache-policy reload: the direct fetch cached the page, and this one must go through the proxy.
    res = fetch("--no-subresources", "--cache-policy", "reload", "--proxy", proxy.url(), *LOOPBACK, url, private=False)
    assert res.returncode == 0 and direct.returncode == 0, res.describe()
    assert len(res.one["redirects"]) == 3
    for key in ("redirects", "url", "title"):
        assert res.one[key] == direct.one[key], key
    assert [target for _, target in proxy.seen] == [h["url"] for h in res.one["redirects"]] + [res.one["url"]]


def test_too_many_redirects_through_the_proxy(server, proxy, fetch):
    res = fetch("--no-subresources", "--proxy", proxy.url(), *LOOPBACK, server.url("/loop/a"), private=False)
    assert_error(res.one, reason="tooManyRedirects", res=res)
    assert len(proxy.seen) == 11


def test_proxy_from_the_environment(server, proxy, linkpeek_bin):
    url = server.url("/page?title=env")
    one, res = run_with_env(linkpeek_bin, ["--no-subresources", *LOOPBACK, url], http_proxy=proxy.url())
    assert one.get("title") == "env", res.stdout
    assert proxy.seen == [("GET", url)]


def test_all_proxy_from_the_environment(server, proxy, linkpeek_bin):
    url = server.url("/page?title=all")
    one, res = run_with_env(linkpeek_bin, ["--no-subresources", *LOOPBACK, url], ALL_PROXY=proxy.url())
    assert one.get("title") == "all", res.stdout
    assert proxy.seen == [("GET", url)]


def test_no_proxy_bypasses_the_proxy(server, proxy, linkpeek_bin):
    url = server.url("/page?title=direct")
    one, res = run_with_env(linkpeek_bin, ["--no-subresources", *LOOPBACK, url],
                            http_proxy=proxy.url(), no_proxy="example.org,127.0.0.0/8")
    assert one.get("title") == "direct", res.stdout
    assert proxy.seen == []


def test_no_proxy_flag_and_empty_proxy_flag(server, proxy, linkpeek_bin):
    url = server.url("/page?title=flag")
    one, _ = run_with_env(linkpeek_bin, ["--no-subresources", "--no-proxy", "127.0.0.1", *LOOPBACK, url],
                          http_proxy=proxy.url())
    assert one.get("title") == "flag"
    one, _ = run_with_env(linkpeek_bin, ["--no-subresources", "--proxy", "", *LOOPBACK, url], http_proxy=proxy.url())
    assert one.get("title") == "flag"
    assert proxy.seen == []


def test_bypassed_target_is_still_checked_at_connect_time(server, proxy, linkpeek_bin):
    before = server.total_hits()
    one, _ = run_with_env(linkpeek_bin, ["--no-subresources", server.url("/page")],
                          http_proxy=proxy.url(), no_proxy="*")
    assert_error(one, reason="blockedAddress")
    assert proxy.seen == [] and server.total_hits() == before


def test_proxy_by_initialization_options(server, proxy, daemon):
    c = daemon(args=LOOPBACK, init_options={"proxy": proxy.url()})
    url = server.url("/page?title=optproxy")
    assert c.fetch(url, fetch_subresources=False)["title"] == "optproxy"
    assert proxy.seen == [("GET", url)]


@pytest.mark.parametrize("value, says", [
    ("ftp://127.0.0.1:21", "unsupported proxy scheme ftp"),
    ("http://", "must be a proxy URL"),
])
def test_bad_proxy_is_a_usage_error(run_cli, value, says):
    res = run_cli("fetch", "--proxy", value, "http://example.test/")
    assert res.returncode == 2 and "--proxy" in res.stderr and says in res.stderr, res.describe()


def test_bad_proxy_option_is_refused_naming_it(daemon):
    c = daemon(initialize=False)
    with pytest.raises(LinkPeekError) as e:
        c.request("initialize", {"initializationOptions": {"proxy": "gopher://x"}})
    assert e.value.code == -32602 and "initializationOptions.proxy" in e.value.message, e.value.message


def test_a_burst_through_the_proxy(server, proxy, fetch):
    urls = [server.url(f"/page?title=b{i}") for i in range(40)]
    res = fetch("--no-subresources", "--proxy", proxy.url(), *LOOPBACK, *urls, private=False)
    assert res.returncode == 0, res.describe()
    assert [o["title"] for o in res.objects] == [f"b{i}" for i in range(40)]
    assert sorted(t for _, t in proxy.seen) == sorted(urls)


# ------------------------------------------------------------------ record and replay (part 4)

CLOCK = "2026-01-01T00:00:00Z"


def session_urls(base: str) -> list:
    """20 pages: plain, with a redirect, a redirect chain, one without an icon (falls back to /favicon.ico)."""
    urls = [f"{base}/page?title=rec{i}" for i in range(14)]
    urls += [f"{base}/redirect?status=301&to=/page%3Ftitle%3Dmoved{i}" for i in range(3)]
    urls += [f"{base}/chain?n=2", f"{base}/noicon", f"{base}/base"]
    return urls


def test_record_then_replay_gives_identical_json_without_the_network(fetch, tmp_path):
    tape = tmp_path / "tape"
    live = FixtureServer().start()
    try:
        urls = session_urls(live.base_url)
        recorded = fetch("--record", str(tape), "--clock", CLOCK, *urls)
        hits = live.total_hits()
    finally:
        live.stop()
    assert recorded.returncode == 0, recorded.describe()
    assert len(recorded.objects) == 20
    assert all(o["fetchedAt"] == "2026-01-01T00:00:00Z" for o in recorded.objects)
    assert sum(1 for o in recorded.objects if o.get("image", {}).get("width")) >= 14
    index = json.loads((tape / "index.json").read_text())
    # every response read: 20 pages, their icons and images (shared ones once)
    assert len(index["entries"]) >= 20 + 2 and len(index["entries"]) <= hits
    for entry in index["entries"]:
        assert (tape / entry["body"]).stat().st_size == entry["bytesRead"], entry
    # The server is gone: anything not served from the tape would fail.
    replayed = fetch("--replay", str(tape), "--clock", CLOCK, *urls)
    assert replayed.returncode == 0, replayed.describe()
    assert replayed.stdout == recorded.stdout


def test_record_twice_writes_the_same_tape(server, fetch, tmp_path):
    urls = [server.url("/page?title=same"), server.url("/redirect?status=302&to=/page")]
    for name in ("a", "b"):
        assert fetch("--record", str(tmp_path / name), "--clock", CLOCK, *urls).returncode == 0
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    for f in files:
        if f.name != "index.json":
            assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f

    def index(name):  # the server's Date header may differ by a second between the runs
        data = json.loads((tmp_path / name / "index.json").read_text())
        for entry in data["entries"]:
            entry["headers"].pop("date", None)
        return data
    assert index("a") == index("b")


def test_replay_of_what_was_not_recorded_fails_not_recorded(server, fetch, tmp_path):
    tape = tmp_path / "tape"
    assert fetch("--no-subresources", "--record", str(tape), server.url("/page?title=one")).returncode == 0
    before = server.total_hits()
    res = fetch("--no-subresources", "--replay", str(tape), server.url("/page?title=two"))
    assert res.returncode == 1, res.describe()
    assert_error(res.one, reason="notRecorded", res=res)
    assert server.total_hits() == before


def test_replay_fallback_goes_to_the_network(server, fetch, tmp_path):
    tape = tmp_path / "tape"
    assert fetch("--no-subresources", "--record", str(tape), server.url("/page?title=one")).returncode == 0
    res = fetch("--no-subresources", "--replay", str(tape), "--replay-fallback", server.url("/page?title=two"))
    assert res.returncode == 0 and res.one["title"] == "two", res.describe()


@pytest.mark.parametrize("args, says", [
    (["--clock", "yesterday"], "--clock must be an ISO 8601 time"),
    (["--replay", "/nonexistent-tape"], "--replay must name a directory recorded with --record"),
])
def test_tape_flag_errors(run_cli, args, says):
    res = run_cli("fetch", *args, "http://example.test/")
    assert res.returncode == 2 and says in res.stderr, res.describe()


def test_replay_and_clock_by_initialization_options(server, fetch, daemon, tmp_path):
    tape = tmp_path / "tape"
    url = server.url("/page?title=daemontape")
    assert fetch("--no-subresources", "--record", str(tape), url).returncode == 0
    c = daemon(init_options={"replay": str(tape), "clock": CLOCK})
    before = server.total_hits()
    m = c.fetch(url, fetch_subresources=False)
    assert m["title"] == "daemontape" and m["fetchedAt"] == "2026-01-01T00:00:00Z"
    assert server.total_hits() == before


# ------------------------------------------------------------------ HTTP/2 over TLS with nginx (part 5)

KiB = 1024


def h2_page(title: str, body_bytes: int = 0) -> bytes:
    head = (f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>'
            f'<meta property="og:title" content="{title}"><meta name="description" content="h2 page {title}">'
            f'</head><body>').encode()
    return head + b"<p>" + b"x" * body_bytes + b"</p></body></html>"


@pytest.fixture(scope="module")
def h2(tls, tmp_path_factory):
    import nginx_fixture
    if not nginx_fixture.available():
        # Under CI the tool must be there (make deps installs it): a missing one is a failure, not a skip.
        if os.environ.get("CI"):
            pytest.fail("nginx is not installed (make deps installs it)")
        pytest.skip("nginx is not installed (make deps installs it)")
    ca, _ = tls
    cert, key = ca.issue(["example.test"])
    files = {f"p{i}.html": h2_page(f"h2 page {i}") for i in range(6)}
    files["big.html"] = h2_page("big", 3 * 1024 * KiB)
    ng = nginx_fixture.NginxServer(tmp_path_factory.mktemp("nginx"), cert, key, files).start()
    yield ca, ng
    ng.stop()


def h2_args(ca, ng) -> list:
    return ["--no-subresources", "--cacert", str(ca.cert), *LOOPBACK,
            "--resolve", f"example.test:{ng.port}:127.0.0.1"]


def log_for(ng, path: str, timeout: float = 5.0) -> dict:
    """The access-log row for `path`; nginx writes it when the stream ends, so wait (bounded)."""
    import time
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = [r for r in ng.log() if r["path"] == path]
        if rows:
            return rows[-1]
        time.sleep(0.05)
    raise AssertionError(f"no access-log line for {path}: {ng.log()}")


def test_h2_head_only_abort(h2, fetch):
    ca, ng = h2
    res = fetch(*h2_args(ca, ng), ng.url("/big.html?a=1"), private=False)
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "big"
    # A 3 MiB page that declares no author or date: its body is searched to
    # 128 KiB for a late byline (plus a chunk), never read whole.
    assert res.one["bytesRead"] < 192 * KiB, res.one["bytesRead"]
    row = log_for(ng, "/big.html?a=1")
    assert row["protocol"] == "HTTP/2.0", row


def test_h2_pages_on_one_host_share_one_connection(h2, daemon):
    ca, ng = h2
    c = daemon(args=[*LOOPBACK, "--cacert", str(ca.cert), "--resolve", f"example.test:{ng.port}:127.0.0.1"])
    paths = [f"/p{i}.html?s={i}" for i in range(5)]
    for i, path in enumerate(paths):
        assert c.fetch(ng.url(path), fetch_subresources=False)["title"] == f"h2 page {i}"
    rows = [log_for(ng, p) for p in paths]
    assert {r["protocol"] for r in rows} == {"HTTP/2.0"}
    assert len({r["connection"] for r in rows}) == 1, rows
    assert [r["requests"] for r in rows] == [1, 2, 3, 4, 5], rows


def test_h2_concurrent_pages_multiplex_and_a_reset_stream_leaves_the_others_alone(h2, fetch):
    # big.html is cut after its head (curl resets that stream) while five
    # other pages run on the same connection: all six answer.
    ca, ng = h2
    paths = ["/big.html?m=1"] + [f"/p{i}.html?m=1" for i in range(5)]
    res = fetch(*h2_args(ca, ng), *[ng.url(p) for p in paths], private=False)
    assert res.returncode == 0, res.describe()
    assert [o["title"] for o in res.objects] == ["big"] + [f"h2 page {i}" for i in range(5)]
    assert res.objects[0]["bytesRead"] < 192 * KiB
    rows = [log_for(ng, p) for p in paths]
    assert {r["protocol"] for r in rows} == {"HTTP/2.0"}
    assert len({r["connection"] for r in rows}) == 1, rows
    assert all(r["status"] == 200 for r in rows), rows


@pytest.mark.parametrize("route", ["/redirect-file", "/redirect-ftp", "/redirect-javascript"])
def test_redirect_to_other_scheme_refused_through_the_proxy(server, proxy, fetch, route):
    res = fetch("--no-subresources", "--proxy", proxy.url(), *LOOPBACK, server.url(route), private=False)
    assert_error(res.one, reason="unsupportedScheme", res=res)
    assert "root:" not in res.stdout
    assert proxy.seen == [("GET", server.url(route))]
