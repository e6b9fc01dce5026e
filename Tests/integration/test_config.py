"""The configuration file through the real binary: a [[site]] rule's user
agent and headers as the loopback server sees them, on the page and on
its icon (each hop judged by its own URL); a credential header refused for
an http host; `hover.fetch = "cacheOnly"` and `hover.deny` making no request
at all; a bad file's sentence from the CLI (status 2) and, once, as the
daemon's window/showMessage while it serves with the rest applied;
`config explain`; precedence flag > environment > file in `config show`.
"""

from __future__ import annotations

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
