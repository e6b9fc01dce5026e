"""Real networks and test harnesses (issue 11): the user agent, `--resolve`,
trust (`--cacert`), proxies. Every server is one the test starts on 127.0.0.1;
made-up names like `example.test` are mapped with `--resolve` and never reach DNS."""

from __future__ import annotations

import subprocess

from conftest import assert_error


# ------------------------------------------------------------------ user agent (part 6)

def test_default_user_agent_names_linkpeek_version_and_bot_only(server, fetch, linkpeek_bin):
    version = subprocess.run([linkpeek_bin, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    res = fetch("--no-subresources", server.url("/ua"))
    assert res.returncode == 0, res.describe()
    ua = res.one["title"]
    assert f"linkpeek/{version}" in ua, ua
    assert "bot" in ua.lower(), ua
    assert "+https://" in ua, ua
    for other in ("facebookexternalhit", "Twitterbot"):
        assert other not in ua, ua
