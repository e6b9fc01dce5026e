"""The site engines' APIs for the editor suites: hand-written answers for the
real API hosts, served over HTTPS (a test CA) on loopback and reached through
a tunnel proxy, the names mapped to 127.0.0.1 (`--resolve`). The editors'
daemons inherit the environment that routes them there (`LINKPEEK_PROXY`,
`LINKPEEK_CA_FILE`, `LINKPEEK_RESOLVE`; the fixture server's own loopback
pages bypass the proxy with `LINKPEEK_NO_PROXY`).

Each editor hovers every link of `CASES` and checks its card's facts line,
which it is told through `LINKPEEK_SITE_CASES` (JSON: [[url, title, line]…]).
"""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
import urllib.parse

from background_server import respond
from test_oembed_walls import https_names

NAMES = ["github.com", "api.github.com", "stackoverflow.com", "api.stackexchange.com",
         "www.npmjs.com", "registry.npmjs.org"]


def _json(obj):
    return json.dumps(obj).encode()


# (host, path) -> the API's answer.
ANSWERS = {
    ("api.github.com", "/repos/o/r/pulls/7"): _json({
        "number": 7, "title": "Faster hovers", "state": "closed", "draft": False, "user": {"login": "octo"},
        "body": "Makes hovers faster.", "comments": 12, "labels": [{"name": "bug"}, {"name": "performance"}],
        "created_at": "2026-01-02T03:04:05Z", "merged_at": "2026-01-05T00:00:00Z"}),
    ("api.github.com", "/repos/o/r"): _json({
        "full_name": "o/r", "description": "A repository.", "stargazers_count": 1234, "language": "Swift",
        "license": {"spdx_id": "MIT"}, "owner": {"login": "o"}}),
    ("api.github.com", "/repos/o/r/releases/latest"): _json({"tag_name": "v1.2.0"}),
    ("api.stackexchange.com", "/2.3/questions/1"): _json({"items": [{
        "title": "Why is x faster?", "score": 231, "answer_count": 14, "accepted_answer_id": 5,
        "tags": ["c++", "performance"], "owner": {"display_name": "Asker"}, "creation_date": 1340000000}]}),
    ("registry.npmjs.org", "/left-pad/latest"): _json({
        "name": "left-pad", "version": "1.3.0", "description": "String left pad", "license": "WTFPL"}),
    ("registry.npmjs.org", "/left-pad"): _json({
        "name": "left-pad", "time": {"1.2.0": "2017-01-01T00:00:00.000Z", "1.3.0": "2018-04-09T01:11:42.240Z"}}),
}

# What each editor hovers, the title its card shows and the facts line under it.
CASES = [
    ["https://github.com/o/r/pull/7", "Faster hovers", "merged · #7 · 12 comments · bug, performance"],
    ["https://stackoverflow.com/questions/1/why", "Why is x faster?",
     "✓ accepted · score 231 · 14 answers · c++, performance"],
    ["https://www.npmjs.com/package/left-pad", "left-pad", "v1.3.0 · WTFPL · 2018-04-09"],
    ["https://github.com/o/r", "o/r", "★ 1234 · Swift · MIT · latest v1.2.0"],
]


class Sites:
    """The API server's state: every (host, path) it was asked."""

    def __init__(self):
        self.seen = []
        self.lock = threading.Lock()
        self.env = {}

    def count(self, host, path):
        with self.lock:
            return sum(1 for seen in self.seen if seen == (host, path))


def _handler(sites):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            host = (self.headers.get("Host") or "").split(":")[0]
            path = urllib.parse.urlsplit(self.path).path
            with sites.lock:
                sites.seen.append((host, path))
            body = ANSWERS.get((host, path))
            if body is None:
                return self.send(404, b'{"message": "Not Found"}', "application/json")
            self.send(200, body, "application/json")

        send = respond

    return Handler


def env_of(args):
    """The daemon's environment for https_names's flags."""
    flags = dict(zip(args[0::2], args[1::2]))
    resolve = [value for flag, value in zip(args[0::2], args[1::2]) if flag == "--resolve"]
    return {"LINKPEEK_PROXY": flags["--proxy"], "LINKPEEK_CA_FILE": flags["--cacert"],
            "LINKPEEK_RESOLVE": ",".join(resolve), "LINKPEEK_NO_PROXY": "127.0.0.1,localhost",
            "LINKPEEK_SITE_CASES": json.dumps(CASES, ensure_ascii=False)}


@contextlib.contextmanager
def serve_sites(tmp_dir):
    from tls_fixture import TestCA
    ca = TestCA(tmp_dir)
    ca.leaf = ca.issue(NAMES)
    sites = Sites()
    with https_names(ca, NAMES, _handler(sites)) as args:
        sites.env = env_of(args)
        yield sites


def assert_each_case_asked(sites):
    """Every case's API was asked, and no case's page: the cards came from the APIs."""
    for host, path in [("api.github.com", "/repos/o/r/pulls/7"), ("api.stackexchange.com", "/2.3/questions/1"),
                       ("registry.npmjs.org", "/left-pad/latest"), ("registry.npmjs.org", "/left-pad"),
                       ("api.github.com", "/repos/o/r/releases/latest")]:
        assert sites.count(host, path) >= 1, (host, path, sites.seen)
    for url, _, _ in CASES:
        parts = urllib.parse.urlsplit(url)
        assert sites.count(parts.hostname, parts.path) == 0, f"the page {url} was read: {sites.seen}"
