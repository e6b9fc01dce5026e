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
import json
import urllib.parse

from test_oembed_walls import https_names
from test_sites import ATOM, Site, answer, make_handler

NAMES = ["github.com", "api.github.com", "stackoverflow.com", "api.stackexchange.com",
         "www.npmjs.com", "registry.npmjs.org", "gitlab.com", "en.wikipedia.org", "arxiv.org", "export.arxiv.org",
         "pypi.org", "crates.io"]


# (host, path) -> the API's answer.
ANSWERS = {
    ("api.github.com", "/repos/o/r/pulls/7"): {
        "number": 7, "title": "Faster hovers", "state": "closed", "draft": False, "user": {"login": "octo"},
        "body": "Makes hovers faster.", "comments": 12, "labels": [{"name": "bug"}, {"name": "performance"}],
        "created_at": "2026-01-02T03:04:05Z", "merged_at": "2026-01-05T00:00:00Z"},
    ("api.github.com", "/repos/o/r"): {
        "full_name": "o/r", "description": "A repository.", "stargazers_count": 1234, "language": "Swift",
        "license": {"spdx_id": "MIT"}, "owner": {"login": "o"}},
    ("api.github.com", "/repos/o/r/releases/latest"): {"tag_name": "v1.2.0"},
    ("api.stackexchange.com", "/2.3/questions/1"): {"items": [{
        "title": "Why is x faster?", "score": 231, "answer_count": 14, "accepted_answer_id": 5,
        "tags": ["c++", "performance"], "owner": {"display_name": "Asker"}, "creation_date": 1340000000}]},
    ("registry.npmjs.org", "/left-pad/latest"): {
        "name": "left-pad", "version": "1.3.0", "description": "String left pad", "license": "WTFPL"},
    ("registry.npmjs.org", "/left-pad"): {
        "name": "left-pad", "time": {"1.2.0": "2017-01-01T00:00:00.000Z", "1.3.0": "2018-04-09T01:11:42.240Z"}},
    ("gitlab.com", "/api/v4/projects/g%2Fp/merge_requests/5"): {
        "iid": 5, "title": "Quicker cards", "state": "merged", "merged_at": "2026-01-05T00:00:00Z",
        "labels": ["perf", "ui"], "user_notes_count": 3, "author": {"username": "a"}},
    ("en.wikipedia.org", "/api/rest_v1/page/summary/Swift_(programming_language)"): {
        "type": "standard", "title": "Swift (programming language)", "lang": "en",
        "description": "General-purpose programming language", "extract": "Swift is a language."},
    ("pypi.org", "/pypi/requests/json"): {
        "info": {"name": "requests", "version": "2.31.0", "summary": "HTTP for Humans.", "license": "Apache-2.0"},
        "urls": [{"upload_time_iso_8601": "2023-05-22T15:12:42.313790Z"}]},
    ("crates.io", "/api/v1/crates/serde"): {
        "crate": {"name": "serde", "max_stable_version": "1.0.200", "description": "A serialization framework."},
        "versions": [{"num": "1.0.201-rc", "license": "MIT", "created_at": "2024-05-02T00:00:00Z"},
                     {"num": "1.0.200", "license": "MIT OR Apache-2.0", "created_at": "2024-04-27T02:58:15Z"}]},
}

# arXiv's export API answers in Atom (XML), not JSON: the integration suite's answer (`ATOM`).

# What each editor hovers, the title its card shows and the facts line under it.
CASES = [
    ["https://github.com/o/r/pull/7", "Faster hovers", "merged · #7 · 12 comments · bug, performance"],
    ["https://stackoverflow.com/questions/1/why", "Why is x faster?",
     "✓ accepted · score 231 · 14 answers · c++, performance"],
    ["https://www.npmjs.com/package/left-pad", "left-pad", "v1.3.0 · WTFPL · 2018-04-09"],
    ["https://github.com/o/r", "o/r", "★ 1234 · Swift · MIT · latest v1.2.0"],
    ["https://gitlab.com/g/p/-/merge_requests/5", "Quicker cards", "merged · #5 · 3 comments · perf, ui"],
    ["https://en.wikipedia.org/wiki/Swift_(programming_language)", "Swift (programming language)",
     "General-purpose programming language · en"],
    ["https://arxiv.org/abs/1706.03762", "Attention Is All You Need", "cs.CL · 3 authors · submitted 2017-06-12"],
    ["https://pypi.org/project/requests/", "requests", "v2.31.0 · Apache-2.0 · 2023-05-22"],
    ["https://crates.io/crates/serde", "serde", "v1.0.200 · MIT OR Apache-2.0 · 2024-04-27"],
]


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
    sites = Site()
    for (host, path), body in ANSWERS.items():
        sites.route(host, path, answer(body))
    sites.route("export.arxiv.org", "/api/query", lambda h: h.send(200, ATOM, "application/atom+xml"))
    with https_names(ca, NAMES, make_handler(sites)) as args:
        sites.env = env_of(args)
        yield sites


def assert_each_case_asked(sites):
    """Every case's API was asked, and no case's page: the cards came from the APIs."""
    for host, path in [("api.github.com", "/repos/o/r/pulls/7"), ("api.stackexchange.com", "/2.3/questions/1"),
                       ("registry.npmjs.org", "/left-pad/latest"), ("registry.npmjs.org", "/left-pad"),
                       ("api.github.com", "/repos/o/r/releases/latest"), ("export.arxiv.org", "/api/query"),
                       *[key for key in ANSWERS if key[0] in ("gitlab.com", "en.wikipedia.org", "pypi.org", "crates.io")]]:
        assert sites.count(host, path) >= 1, (host, path, sites.seen)
    for url, _, _ in CASES:
        parts = urllib.parse.urlsplit(url)
        assert sites.count(parts.hostname, parts.path) == 0, f"the page {url} was read: {sites.seen}"
