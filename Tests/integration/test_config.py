"""The configuration file through the real binary: a [[site]] rule's user
agent and headers as the loopback server sees them, on the page and on
its icon (each hop judged by its own URL); a credential header refused for
an http host; `hover.fetch = "cacheOnly"` and `hover.deny` making no request
at all; a bad file's sentence from the CLI (status 2) and, once, as the
daemon's window/showMessage while it serves with the rest applied;
`config explain`; precedence flag > environment > file in `config show`;
live changes mid-session: workspace/didChangeConfiguration and SIGHUP
apply to the next request, and a running request keeps its settings;
a rule's minTTL/maxTTL and failureTTL as `cache get` sees them at a clock
offset the test sets; the parsed file kept in the cache directory (same
answers warm, damaged cache ignored, an edit parsed again); engines a
change replaced shut down before the daemon exits.
"""

from __future__ import annotations

import os
import re
import signal
import threading

import pytest

URI = "file:///notes.md"


@pytest.fixture(scope="module")
def site(server):
    def page(h, path, q):
        h.send(200, b'<html><head><title>Rule page</title><link rel="icon" href="/cfg-icon.ico"></head></html>')

    server.add_route("/cfg-page", page)
    server.add_route("/cfg-icon.ico", lambda h, p, q: h.send(404, b"", ctype="text/plain"))
    server.add_route("/cfg-hover", page)
    server.add_route("/cfg-never", page)
    server.add_route("/cfg-cache-only", page)
    server.add_route("/cfg-live", page)
    held, arrived = threading.Event(), threading.Event()
    server.cfg_release, server.cfg_arrived = held, arrived

    def slow(h, path, q):
        arrived.set()
        held.wait(10)
        h.send(200, b'<html><head><title>Slow</title><link rel="icon" href="/cfg-slow-icon.ico"></head></html>')

    server.add_route("/cfg-ttl-short", lambda h, p, q: h.send(
        200, b"<html><head><title>Short</title></head></html>", headers={"Cache-Control": "max-age=60"}))
    server.add_route("/cfg-ttl-long", page)
    server.add_route("/cfg-ttl-404", lambda h, p, q: h.send(404, b"gone", ctype="text/plain"))
    server.add_route("/cfg-ttl-500", lambda h, p, q: h.send(500, b"oops", ctype="text/plain"))
    server.add_route("/cfg-slow", slow)
    server.add_route("/cfg-slow-icon.ico", lambda h, p, q: h.send(404, b"", ctype="text/plain"))
    return server


def write(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def seen(server, path: str) -> list[dict]:
    return [h for full, h in server.headers_seen if full.startswith(path)]


def test_a_site_rule_sets_user_agent_and_headers_on_every_hop(run_cli, site, tmp_path):
    config = write(tmp_path, '[[site]]\nmatch = "127.0.0.1"\nuserAgent = "rule-agent/1"\n'
                   'headers = { "X-Rule" = "yes" }\n')
    res = run_cli("fetch", "--allow-private-network", "--no-cache", "--config", str(config), site.url("/cfg-page"))
    assert res.returncode == 0, res.stderr
    for path in ("/cfg-page", "/cfg-icon.ico"):
        headers = seen(site, path)
        assert headers, path
        assert headers[-1].get("User-Agent") == "rule-agent/1", path
        assert headers[-1].get("X-Rule") == "yes", path


def test_no_rule_matches_another_host(run_cli, site, tmp_path):
    config = write(tmp_path, '[[site]]\nmatch = "*.example.com"\nuserAgent = "rule-agent/2"\n')
    res = run_cli("fetch", "--allow-private-network", "--no-cache", "--config", str(config), site.url("/cfg-page"))
    assert res.returncode == 0, res.stderr
    assert seen(site, "/cfg-page")[-1].get("User-Agent") != "rule-agent/2"


def test_fetch_never_refuses_the_url_cached_or_not(run_cli, site, tmp_path):
    cache = ["--allow-private-network", "--cache-dir", str(tmp_path / "cache")]
    assert run_cli("fetch", *cache, site.url("/cfg-never")).returncode == 0
    before = len(seen(site, "/cfg-never"))
    config = write(tmp_path, '[[site]]\nmatch = "127.0.0.1/cfg-never"\nfetch = "never"\n')
    res = run_cli("fetch", *cache, "--config", str(config), site.url("/cfg-never"))
    assert res.returncode == 1, res.stderr
    assert res.one["error"]["reason"] == "fetchRefused", res.stdout
    assert "line 1" in res.one["error"]["message"], res.stdout
    assert len(seen(site, "/cfg-never")) == before


def test_fetch_cache_only_answers_from_the_cache_and_never_the_network(run_cli, site, tmp_path):
    cache = ["--allow-private-network", "--cache-dir", str(tmp_path / "cache")]
    config = write(tmp_path, '[[site]]\nmatch = "127.0.0.1/cfg-cache-only"\nfetch = "cacheOnly"\n')
    res = run_cli("fetch", *cache, "--config", str(config), site.url("/cfg-cache-only"))
    assert res.returncode == 1 and res.one["error"]["reason"] == "notCached", res.stdout
    assert seen(site, "/cfg-cache-only") == []
    assert run_cli("fetch", *cache, site.url("/cfg-cache-only")).returncode == 0
    res = run_cli("fetch", *cache, "--config", str(config), site.url("/cfg-cache-only"))
    assert res.returncode == 0 and res.one["fromCache"] is True, res.stdout
    assert len(seen(site, "/cfg-cache-only")) == 1


def test_a_credential_header_for_an_http_host_is_refused(run_cli, tmp_path):
    config = write(tmp_path, '[[site]]\nmatch = "api.example.com"\nallowCredentials = true\n'
                   'headers = { Authorization = "Bearer x" }\n')
    res = run_cli("config", "check", str(config), parse=False)
    assert res.returncode == 2
    assert res.stderr.strip() == (
        f"linkpeek: {config}:4: [[site]] 1: headers.Authorization is refused: Host, Cookie and Authorization need "
        "allowCredentials = true and match patterns that each name one https:// host.")


def test_bad_file_exits_2_with_one_sentence(run_cli, site, tmp_path):
    config = write(tmp_path, "timeout = 3\nmaxConcurrency = 0\n")
    res = run_cli("fetch", "--allow-private-network", "--config", str(config), site.url("/cfg-page"))
    assert res.returncode == 2
    assert res.stderr.strip() == f"linkpeek: {config}:2: maxConcurrency must be an integer from 1 to 1024."


def test_an_unreadable_file_is_not_an_empty_file(run_cli, tmp_path):
    # A directory: unreadable as a file even for root, who reads any mode.
    config = tmp_path / "config.toml"
    config.mkdir()
    res = run_cli("config", "check", str(config), parse=False)
    assert res.returncode == 2
    assert res.stderr.strip() == (
        f"linkpeek: {config}: could not be read (Is a directory); none of it is applied.")


def test_explain_names_the_rule_and_what_it_changes(run_cli, tmp_path):
    config = write(tmp_path, '[[site]]\nmatch = "a.test"\n\n[[site]]\nmatch = "*.example.com/docs"\n'
                   'userAgent = "u"\nfailureTTL = { notFound = 600 }\ntoken = "secret"\n')
    config.chmod(0o600)
    res = run_cli("config", "explain", "--config", str(config), "https://www.example.com/docs/x", parse=False)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [
        f"https://www.example.com/docs/x: [[site]] 2 ({config}:4) applies",
        "  userAgent = u", "  failureTTL.notFound = 600", "  token = (hidden)"]


def test_a_token_in_a_file_others_can_read_warns_with_the_mode(run_cli, tmp_path):
    config = write(tmp_path, '[[site]]\nmatch = "a.test"\ntoken = "secret"\n')
    config.chmod(0o644)
    res = run_cli("config", "check", str(config), parse=False)
    assert res.returncode == 0
    assert res.stderr.strip() == (
        f"linkpeek: warning: {config} holds a token and is readable by others (mode 644); chmod 600 it")


def test_show_says_where_each_value_comes_from(run_cli, tmp_path, monkeypatch):
    config = write(tmp_path, 'timeout = 4\nuserAgent = "file"\ncacheSize = 10\n')
    monkeypatch.setenv("LINKPEEK_USER_AGENT", "env")
    monkeypatch.setenv("LINKPEEK_CACHE_SIZE", "11")
    res = run_cli("config", "show", "--config", str(config), parse=False)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert f"timeout = 4  ({config})" in lines
    assert "userAgent = env  (environment)" in lines
    assert "cacheSize = 11  (environment)" in lines
    assert "maxConcurrency = 64  (default)" in lines


@pytest.mark.parametrize("hover", ['fetch = "cacheOnly"', 'deny = ["127.0.0.1"]', 'fetch = "allowList"'])
def test_hover_that_may_not_fetch_makes_no_request(make_client, site, tmp_path, hover):
    config = write(tmp_path, f"[hover]\n{hover}\n")
    c = make_client(args=["--config", str(config)])
    before = site.hits("/cfg-hover")
    url = site.url("/cfg-hover")
    c.did_open(URI, f"see {url}\n")
    result = c.hover(URI, 0, 6)
    value = result["contents"]["value"]
    assert "not fetched: hover fetching is off for 127.0.0.1" in value, value
    assert site.hits("/cfg-hover") == before
    # An explicit fetch still fetches.
    c.fetch(url)
    assert site.hits("/cfg-hover") == before + 1


def test_daemon_serves_with_the_rest_and_shows_the_problem_once(make_client, site, tmp_path):
    config = write(tmp_path, 'timout = 3\n[[site]]\nmatch = "127.0.0.1"\nuserAgent = "rule-agent/3"\n')
    c = make_client(args=["--config", str(config)])
    shown = [m for m in c.messages() if m.get("method") == "window/showMessage"]
    assert [m["params"] for m in shown] == [{"type": 2, "message": (
        f"{config}:1: timout is not a key of linkpeek (`linkpeek config keys` lists them).")}]
    c.fetch(site.url("/cfg-page?daemon"))
    assert seen(site, "/cfg-page?daemon")[-1].get("User-Agent") == "rule-agent/3"


def agent(server, path: str) -> str | None:
    return seen(server, path)[-1].get("User-Agent")


def test_did_change_configuration_applies_to_the_next_request_and_not_a_running_one(make_client, site):
    c = make_client(init_options={"userAgent": "first-agent/1"})
    site.cfg_release.clear()
    site.cfg_arrived.clear()
    running = c.fetch_async(site.url("/cfg-slow?live"))
    # The slow page has been asked for with the first settings before they change.
    assert site.cfg_arrived.wait(10)
    c.notify("workspace/didChangeConfiguration", {"settings": {"userAgent": "second-agent/2"}})
    c.fetch(site.url("/cfg-live?after-change"))
    assert agent(site, "/cfg-live?after-change") == "second-agent/2"
    site.cfg_release.set()
    running.result(timeout=20)
    # The running fetch's icon hop, made after the change, still used its own settings.
    assert agent(site, "/cfg-slow-icon.ico") == "first-agent/1"


def test_bad_did_change_configuration_changes_nothing_and_says_why(make_client, site):
    c = make_client(init_options={"userAgent": "kept-agent/1"})
    mark = c.mark()
    c.notify("workspace/didChangeConfiguration", {"settings": {"timeout": -1, "userAgent": "never/1"}})
    shown = c.wait_for(lambda m: m.get("method") == "window/showMessage", after=mark, timeout=10)
    assert shown["params"] == {"type": 2, "message": (
        "workspace/didChangeConfiguration ignored: "
        "settings.timeout must be a number from 0.001 to 3600 (seconds)")}
    c.fetch(site.url("/cfg-live?bad-change"))
    assert agent(site, "/cfg-live?bad-change") == "kept-agent/1"


def test_sighup_reads_the_file_again_and_shows_its_problems(make_client, site, tmp_path):
    config = write(tmp_path, '[[site]]\nmatch = "127.0.0.1"\nuserAgent = "file-agent/1"\n')
    c = make_client(args=["--config", str(config)], init_options={"hoverTimeout": 2})
    c.fetch(site.url("/cfg-live?before-hup"))
    assert agent(site, "/cfg-live?before-hup") == "file-agent/1"
    config.write_text('timout = 3\n[[site]]\nmatch = "127.0.0.1"\nuserAgent = "file-agent/2"\n')
    mark = c.mark()
    os.kill(c.pid, signal.SIGHUP)
    shown = c.wait_for(lambda m: m.get("method") == "window/showMessage", after=mark, timeout=10)
    assert shown["params"]["message"] == (
        f"{config}:1: timout is not a key of linkpeek (`linkpeek config keys` lists them).")
    c.fetch(site.url("/cfg-live?after-hup"))
    assert agent(site, "/cfg-live?after-hup") == "file-agent/2"


TTL_RULES = """
[[site]]
match = "127.0.0.1/cfg-ttl-short"
minTTL = 172800
[[site]]
match = "127.0.0.1/cfg-ttl-long"
maxTTL = 600
[[site]]
match = "127.0.0.1/cfg-ttl-"
failureTTL = { notFound = 30, serverError = 5000 }
"""


def cached_at(run_cli, cache, url: str, offset: int):
    return run_cli("cache", "get", "--cache-dir", str(cache), "--clock-offset", str(offset), url)


@pytest.mark.parametrize("path, offset, stale", [
    # max-age=60 is kept an hour without a rule; minTTL keeps it two days.
    ("/cfg-ttl-short", 100000, False), ("/cfg-ttl-short", 180000, True),
    # No caching headers is a day without a rule; maxTTL makes it ten minutes.
    ("/cfg-ttl-long", 500, False), ("/cfg-ttl-long", 700, True),
])
def test_min_and_max_ttl_clamp_a_preview_lifetime(run_cli, site, tmp_path, path, offset, stale):
    config, cache = write(tmp_path, TTL_RULES), tmp_path / "cache"
    url = site.url(path)
    assert run_cli("fetch", "--allow-private-network", "--cache-dir", str(cache), "--config", str(config),
                   "--no-sites", url).returncode == 0
    res = cached_at(run_cli, cache, url, offset)
    assert res.returncode == 0, res.stderr
    assert res.objects[0].get("stale", False) is stale


@pytest.mark.parametrize("path, kept, gone", [
    # notFound is kept 600 s without a rule, serverError 120 s.
    ("/cfg-ttl-404", 20, 40), ("/cfg-ttl-500", 4000, 6000),
])
def test_failure_ttl_sets_how_long_a_failure_is_kept(run_cli, site, tmp_path, path, kept, gone):
    config, cache = write(tmp_path, TTL_RULES), tmp_path / "cache"
    url = site.url(path)
    assert run_cli("fetch", "--allow-private-network", "--cache-dir", str(cache), "--config", str(config),
                   url).returncode == 1
    held = cached_at(run_cli, cache, url, kept)
    assert held.returncode == 0, held.describe()
    assert held.objects[0]["error"]["reason"] == "httpStatus" and "stale" not in held.objects[0]["error"]
    later = cached_at(run_cli, cache, url, gone)
    assert later.returncode == 0 and later.objects[0]["error"].get("stale") is True, later.describe()


def test_cache_and_saved_commands_use_the_files_cache_dir(run_cli, site, tmp_path, monkeypatch):
    cache = tmp_path / "file-cache"
    config = write(tmp_path, f'cacheDir = "{cache}"\n')
    url = site.url("/cfg-page?cache-dir")
    assert run_cli("fetch", "--allow-private-network", "--config", str(config), url).returncode == 0
    stats = run_cli("cache", "stats", "--json", "--config", str(config))
    assert stats.returncode == 0, stats.describe()
    assert stats.objects[0]["location"].startswith(str(cache)) and stats.objects[0]["entries"] == 1, stats.describe()
    got = run_cli("cache", "get", "--config", str(config), url)
    assert got.returncode == 0 and got.objects[0]["title"] == "Rule page", got.describe()
    assert run_cli("saved", "add", "--allow-private-network", "--config", str(config), url).returncode == 0
    # LINKPEEK_CONFIG names the same file for the commands without --config.
    monkeypatch.setenv("LINKPEEK_CONFIG", str(config))
    listed = run_cli("saved", "list", parse=False)
    assert listed.returncode == 0 and url in listed.stdout, listed.describe()
    assert run_cli("saved", "export", parse=False).stdout.count(url) == 1
    # A flag beats the file: another directory holds nothing.
    other = run_cli("saved", "list", "--cache-dir", str(tmp_path / "other"), parse=False)
    assert other.returncode == 0 and url not in other.stdout, other.describe()
    # $XDG_CONFIG_HOME/linkpeek/config.toml when neither names a file.
    monkeypatch.delenv("LINKPEEK_CONFIG")
    (tmp_path / "xdg" / "linkpeek").mkdir(parents=True)
    (tmp_path / "xdg" / "linkpeek" / "config.toml").write_text(config.read_text())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert run_cli("saved", "remove", url, parse=False).returncode == 0
    assert url not in run_cli("saved", "list", parse=False).stdout
    cleared = run_cli("cache", "clear", parse=False)
    assert cleared.returncode == 0 and cleared.stdout.strip() != "removed 0 entries", cleared.describe()
    assert run_cli("cache", "stats", "--json").objects[0]["entries"] == 0


def test_cache_commands_exit_2_on_a_bad_file(run_cli, tmp_path):
    config = write(tmp_path, "cacheSize = 0\n")
    for args in (("cache", "stats"), ("saved", "list")):
        res = run_cli(*args, "--config", str(config), parse=False)
        assert res.returncode == 2 and "cacheSize" in res.stderr and f"{config}:1" in res.stderr, res.describe()


HOP_RULES = """
[[site]]
match = "a.test"
userAgent = "a-agent/1"
headers = { "X-From-A" = "yes" }
[[site]]
match = "b.test"
userAgent = "b-agent/1"
"""


@pytest.mark.parametrize("target_host, agent", [("b.test", "b-agent/1"), ("c.test", None)])
def test_a_redirect_is_sent_as_its_own_hosts_rule_says(run_cli, site, tmp_path, target_host, agent):
    config = write(tmp_path, HOP_RULES)
    port = site.port
    marker = f"hop-{target_host}"
    target = f"http://{target_host}:{port}/cfg-page?{marker}"
    start = f"http://a.test:{port}/redirect?status=302&to={target}"
    res = run_cli("fetch", "--no-subresources", "--no-cache", "--allow-network", "127.0.0.1/32",
                  *(arg for host in ("a.test", "b.test", "c.test") for arg in ("--resolve", f"{host}:{port}:127.0.0.1")),
                  "--config", str(config), start)
    assert res.returncode == 0, res.describe()
    assert res.objects[0]["title"] == "Rule page" and res.objects[0]["redirects"] == [{"url": start, "status": 302}]
    first = [h for full, h in site.headers_seen if full.startswith("/redirect?") and marker in full]
    hop = seen(site, f"/cfg-page?{marker}")
    assert len(first) == 1 and len(hop) == 1, (first, hop)
    assert first[0].get("User-Agent") == "a-agent/1" and first[0].get("X-From-A") == "yes"
    # The target's rule, or none: never the first host's user agent or headers.
    assert "X-From-A" not in hop[0]
    if agent:
        assert hop[0].get("User-Agent") == agent
    else:
        assert hop[0].get("User-Agent", "").startswith("Mozilla/5.0 (compatible; linkpeek/"), hop[0]


def test_an_unchanged_file_is_read_from_the_cache_with_the_same_answers(run_cli, tmp_path, private_cache_home):
    rules = "".join(f'[[site]]\nmatch = ["h{n}.test", "*.h{n}.test/docs"]\nuserAgent = "a{n}"\ntimeout = {n + 1}\n'
                    f'headers = {{ "X-N" = "{n}" }}\nfailureTTL = {{ notFound = {60 + n} }}\n\n' for n in range(6))
    good = write(tmp_path, 'timeout = 4\n[hover]\nfetch = "cacheOnly"\n\n' + rules)
    bad = tmp_path / "bad.toml"
    bad.write_text('timeout = 4\nbogus = 1\n\n' + rules + '[[site]]\nmatch = "x.test"\nminTTL = -1\n')

    def answers():
        return [(r.returncode, r.stdout, r.stderr) for r in (
            run_cli("config", "show", "--config", str(good), parse=False),
            run_cli("config", "explain", "--config", str(good), "https://a.h4.test/docs/x", parse=False),
            run_cli("config", "show", "--config", str(bad), parse=False))]

    cold = answers()
    assert [code for code, _, _ in cold] == [0, 0, 2]
    assert "[[site]] 5" in cold[1][1] and "userAgent = a4" in cold[1][1]
    assert f"{bad}:2: bogus" in cold[2][2] and f"{bad}:" in cold[2][2]
    caches = sorted((private_cache_home / "linkpeek").glob("config-*.cache"))
    assert len(caches) == 2  # one per file
    assert all(c.stat().st_mode & 0o777 == 0o600 for c in caches)
    kept = {c: (c.read_bytes(), c.stat().st_mtime_ns) for c in caches}
    # Warm: the same answers, and the caches were read, not written again.
    assert answers() == cold
    assert {c: (c.read_bytes(), c.stat().st_mtime_ns) for c in caches} == kept
    # A damaged cache is ignored (and written anew); the answers stay the same.
    for cache in caches:
        data = bytearray(cache.read_bytes())
        data[len(data) // 2] ^= 0xFF
        cache.write_bytes(bytes(data))
    assert answers() == cold
    assert {c: c.read_bytes() for c in caches} == {c: kept[c][0] for c in caches}
    # One byte changed in the file: it is parsed again and its cache rewritten.
    good.write_text(good.read_text().replace('userAgent = "a4"', 'userAgent = "a5"'))
    changed = run_cli("config", "explain", "--config", str(good), "https://a.h4.test/docs/x", parse=False)
    assert "userAgent = a5" in changed.stdout
    assert {c: c.read_bytes() for c in caches} != {c: kept[c][0] for c in caches}


def test_engines_replaced_by_a_change_are_shut_down_before_the_daemon_exits(make_client, site, tmp_path):
    log = tmp_path / "daemon.log"
    c = make_client(args=["--log-level", "info", "--log-file", str(log)], init_options={"userAgent": "one/1"})
    c.fetch(site.url("/cfg-live?engine-1"))
    for n in (2, 3):
        c.notify("workspace/didChangeConfiguration", {"settings": {"userAgent": f"agent-{n}/1"}})
        c.fetch(site.url(f"/cfg-live?engine-{n}"))
        assert agent(site, f"/cfg-live?engine-{n}") == f"agent-{n}/1"
    assert c.request("shutdown") is None
    c.notify("exit")
    assert c.wait_exit(10) == 0
    # Two engines were replaced: each is shut down once, either when a later
    # change finds it idle or at exit, after the current one.
    lines = log.read_text().splitlines()
    joined = [line for line in lines if "replaced engine" in line]
    assert len(joined) == 1, lines[-5:]
    assert re.search(r"replaced engines? at exit, 2 in all$", joined[0]), joined
