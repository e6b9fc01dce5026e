"""Precedence through the real daemon, with all five sources set at once:
a flag beats initializationOptions (and workspace/didChangeConfiguration),
which beat the environment (LINKPEEK_*), which beats the configuration
file, which beats the default. Read in the initialize result's `settings`
and in the User-Agent a loopback server sees.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def site(server):
    server.add_route("/prec-page", lambda h, p, q: h.send(200, b"<html><head><title>Precedence</title></head></html>"))
    return server


def agent(site, query: str) -> str | None:
    seen = [h for full, h in site.headers_seen if full == f"/prec-page?{query}"]
    assert seen, f"no request for /prec-page?{query}"
    return seen[-1].get("User-Agent")


@pytest.fixture
def sources(tmp_path):
    """(args, env) setting timeout, userAgent, hoverTimeout and maxConcurrency in the file and the
    environment, as many of them as each source under test sets."""
    config = tmp_path / "config.toml"
    config.write_text('timeout = 11\nuserAgent = "file/1"\nhoverTimeout = 4\nmaxConcurrency = 9\n')
    env = {**os.environ, "LINKPEEK_TIMEOUT": "12", "LINKPEEK_USER_AGENT": "env/1", "LINKPEEK_HOVER_TIMEOUT": "3"}
    return ["--config", str(config)], env


def test_each_key_takes_the_highest_source_that_sets_it(make_client, site, sources):
    args, env = sources
    c = make_client(args=[*args, "--timeout", "14"], env=env,
                    init_options={"timeout": 13, "userAgent": "client/1"})
    settings = c.initialize_result["settings"]
    assert settings["timeout"] == 14                # flag > client, environment, file
    assert settings["userAgent"] == "client/1"      # client > environment, file
    assert settings["hoverTimeout"] == 3            # environment > file
    assert settings["maxConcurrency"] == 9          # file > default
    assert settings["prefetch"] is False            # the default
    c.fetch(site.url("/prec-page?client"))
    assert agent(site, "client") == "client/1"
    # A change from the client takes the client's place: above the environment, below the flags.
    c.notify("workspace/didChangeConfiguration", {"settings": {"userAgent": "client/2"}})
    c.fetch(site.url("/prec-page?changed"))
    assert agent(site, "changed") == "client/2"


def test_a_flag_beats_what_the_client_sends_and_changes(make_client, site, sources):
    args, env = sources
    c = make_client(args=[*args, "--user-agent", "flag/1"], env=env, init_options={"userAgent": "client/1"})
    assert c.initialize_result["settings"]["userAgent"] == "flag/1"
    c.notify("workspace/didChangeConfiguration", {"settings": {"userAgent": "client/2"}})
    c.fetch(site.url("/prec-page?flag"))
    assert agent(site, "flag") == "flag/1"


def test_without_a_client_the_environment_beats_the_file(make_client, site, sources):
    args, env = sources
    c = make_client(args=args, env=env)
    settings = c.initialize_result["settings"]
    assert (settings["timeout"], settings["userAgent"], settings["hoverTimeout"]) == (12, "env/1", 3)
    c.fetch(site.url("/prec-page?env"))
    assert agent(site, "env") == "env/1"


def test_a_change_of_settings_keeps_what_the_cache_holds(make_client, site):
    # Memory only: without the new engine taking over the old one's memory level, the preview would be gone.
    c = make_client(init_options={"cacheDir": None, "userAgent": "client/1"})
    url = site.url("/prec-page?kept")
    c.fetch(url)
    c.notify("workspace/didChangeConfiguration", {"settings": {"userAgent": "client/3"}})
    cached = c.get_cached(url)
    assert cached and cached["title"] == "Precedence", cached
    # The settings did change: the next fetch is made with the new user agent.
    c.fetch(site.url("/prec-page?after-kept"))
    assert agent(site, "after-kept") == "client/3"
