"""Site engines, on loopback only: hand-written API answers for the real API
hosts (api.github.com, api.stackexchange.com, en.wikipedia.org) from a local
HTTPS server signed by a test CA, reached through a CONNECT proxy that opens
every tunnel to it (the names are mapped with `--resolve` to 127.0.0.1 and
judged by the address policy first). Each test says which requests the
servers saw, the token's header among them."""

from __future__ import annotations

import http.server
import json
import threading
import time
import urllib.parse
from collections import Counter

import pytest

from background_server import respond
from test_oembed_walls import https_names

NAMES = ["github.com", "api.github.com", "gist.github.com", "stackoverflow.com", "api.stackexchange.com",
         "en.wikipedia.org", "arxiv.org", "export.arxiv.org", "pypi.org", "gitlab.com", "git.example.test", "other.example.test",
         "www.npmjs.com", "registry.npmjs.org"]
TOKEN = "ghp_secret0123456789"


class Site:
    """Routes by (host, path); keeps every request's host, path and Authorization header."""

    def __init__(self):
        self.routes = {}
        self.seen = []
        self.posts = []  # (host, path, Content-Type, body) of each POST
        self.lock = threading.Lock()

    def route(self, host, path, fn):
        self.routes[(host, path)] = fn

    def count(self, host, path=None):
        with self.lock:
            return sum(1 for h, p, _ in self.seen if h == host and (path is None or p == path))

    def auth(self, host):
        with self.lock:
            return [a for h, _, a in self.seen if h == host]


def make_handler(site):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            host = (self.headers.get("Host") or "").split(":")[0]
            path = urllib.parse.urlsplit(self.path).path
            with site.lock:
                site.seen.append((host, path, self.headers.get("Authorization")))
                if self.command == "POST":
                    self.body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                    site.posts.append((host, path, self.headers.get("Content-Type"), self.body))
            fn = site.routes.get((host, path))
            if fn is None:
                return self.send(404, b"<title>not found</title>")
            fn(self)

        do_POST = do_GET
        send = respond

    return Handler


@pytest.fixture(scope="module")
def ca(tmp_path_factory):
    from tls_fixture import TestCA
    ca = TestCA(tmp_path_factory.mktemp("sites-ca"))
    ca.leaf = ca.issue(NAMES)
    return ca


@pytest.fixture
def site(ca):
    s = Site()
    with https_names(ca, NAMES, make_handler(s)) as args:
        s.args = args
        yield s


@pytest.fixture
def token(monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)


def page(title):
    return lambda h: h.send(200, f"<!doctype html><html><head><title>{title}</title></head><body></body></html>".encode())


def answer(obj, status=200, headers=()):
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return lambda h: h.send(status, body, "application/json", headers)


def run(run_cli, site, *args, timeout=60, parse=True):
    res = run_cli("fetch", "--no-subresources", *site.args, *args, timeout=timeout, parse=parse)
    assert TOKEN not in res.stdout and TOKEN not in res.stderr, res.describe()
    return res


PULL = {"number": 7, "title": "Faster hovers", "state": "closed", "draft": False, "user": {"login": "octo"},
        "body": "Makes hovers faster.", "comments": 12, "labels": [{"name": "bug"}, {"name": "performance"}],
        "created_at": "2026-01-02T03:04:05Z", "closed_at": "2026-01-05T00:00:00Z",
        "merged_at": "2026-01-05T00:00:00Z"}
PR_URL = "https://github.com/o/r/pull/7"
PR_API = "/repos/o/r/pulls/7"


def github_page(site, path="/o/r/pull/7"):
    site.route("github.com", path, page("The page itself"))


def assert_page(res, site):
    assert res.returncode == 0, res.describe()
    m = res.one
    assert m["title"] == "The page itself" and "site" not in m, res.describe()
    assert site.count("github.com", "/o/r/pull/7") == 1


# ------------------------------------------------------------------ GitHub

def test_a_pull_request_is_read_from_the_api_with_the_token(site, run_cli, token):
    site.route("api.github.com", PR_API, answer(PULL))
    github_page(site)
    res = run(run_cli, site, PR_URL)
    assert res.returncode == 0, res.describe()
    m = res.one
    assert (m["title"], m["author"], m["summary"], m["siteName"]) == ("Faster hovers", "octo", "Makes hovers faster.", "GitHub")
    assert m["site"] == {"engine": "github", "kind": "pullRequest", "state": "merged", "number": 7, "comments": 12,
                         "labels": ["bug", "performance"], "createdAt": "2026-01-02T03:04:05Z",
                         "closedAt": "2026-01-05T00:00:00Z", "mergedAt": "2026-01-05T00:00:00Z", "repository": "o/r"}
    assert m["sources"]["title"] == "github API"
    assert site.auth("api.github.com") == [f"Bearer {TOKEN}"]
    assert site.count("github.com") == 0  # the page was not needed


def test_the_card_has_the_status_line(site, run_cli):
    site.route("api.github.com", PR_API, answer(PULL))
    res = run(run_cli, site, "--format", "markdown", PR_URL, parse=False)
    assert res.returncode == 0, res.describe()
    assert "merged · #7 · 12 comments · bug, performance" in res.stdout, res.describe()


def test_not_found_reads_the_page(site, run_cli, token):
    github_page(site)
    site.route("api.github.com", PR_API, answer({"message": "Not Found"}, status=404))
    assert_page(run(run_cli, site, PR_URL), site)


def test_a_spent_rate_limit_reads_the_page_and_holds_the_api(site, make_client):
    github_page(site)
    github_page(site, "/o/r/issues/8")
    reset = str(int(time.time()) + 600)
    site.route("api.github.com", PR_API, answer({"message": "API rate limit exceeded"}, status=403,
                                                headers=[("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", reset)]))
    c = make_client(private=False, args=site.args)
    first = c.fetch(PR_URL, fetch_subresources=False)
    second = c.fetch("https://github.com/o/r/issues/8", fetch_subresources=False)
    assert (first["title"], second["title"]) == ("The page itself", "The page itself")
    assert "site" not in first and "site" not in second
    # The second link's API request was never made: the limit holds api.github.com.
    assert site.count("api.github.com") == 1 and site.count("github.com", "/o/r/issues/8") == 1


@pytest.mark.parametrize("route", [
    answer({"message": "boom"}, status=502),
    answer(b'{"number": 7, "title": '),
    answer(b"x" * (600 * 1024)),
    answer([1, 2, 3]),
], ids=["5xx", "malformed", "oversized", "not-an-object"])
def test_a_failing_api_reads_the_page(site, run_cli, route):
    github_page(site)
    site.route("api.github.com", PR_API, route)
    assert_page(run(run_cli, site, PR_URL), site)


def test_an_api_that_stalls_reads_the_page_within_the_timeout(site, run_cli):
    github_page(site)
    site.route("api.github.com", PR_API, lambda h: (time.sleep(4), answer(PULL)(h)))
    started = time.monotonic()
    res = run(run_cli, site, "--timeout", "4", PR_URL)
    assert_page(res, site)
    assert time.monotonic() - started < 4.5, res.describe()


def test_a_redirect_to_another_host_is_not_followed_and_the_token_goes_nowhere(site, run_cli, token):
    github_page(site)
    site.route("api.github.com", PR_API, lambda h: h.send(
        302, b"", headers=[("Location", "https://other.example.test/steal")]))
    site.route("other.example.test", "/steal", answer(PULL))
    assert_page(run(run_cli, site, PR_URL), site)
    assert site.count("other.example.test") == 0
    assert site.auth("api.github.com") == [f"Bearer {TOKEN}"]


def test_a_refused_token_says_so_in_one_sentence_and_reads_the_page(site, run_cli, token):
    github_page(site)
    site.route("api.github.com", PR_API, answer({"message": "Bad credentials"}, status=401))
    res = run(run_cli, site, PR_URL)
    assert_page(res, site)
    assert "api.github.com refused the token in GITHUB_TOKEN; github links are previewed from their pages." in res.stderr


def test_a_link_that_is_not_an_engines_shape_asks_no_api(site, run_cli):
    site.route("github.com", "/topics/swift", page("Topics"))
    res = run(run_cli, site, "https://github.com/topics/swift")
    assert res.returncode == 0 and res.one["title"] == "Topics", res.describe()
    assert site.count("api.github.com") == 0


def test_no_sites_asks_no_api(site, run_cli):
    github_page(site)
    site.route("api.github.com", PR_API, answer(PULL))
    assert_page(run(run_cli, site, "--no-sites", PR_URL), site)
    assert site.count("api.github.com") == 0


def test_no_token_without_the_variable(site, run_cli, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    site.route("api.github.com", PR_API, answer(PULL))
    res = run(run_cli, site, PR_URL)
    assert res.returncode == 0 and res.one["site"]["state"] == "merged", res.describe()
    assert site.auth("api.github.com") == [None]



DISCUSSION = {"title": "How to X?", "number": 7, "body": "I tried Y.", "createdAt": "2026-01-02T03:04:05Z",
              "closed": False, "closedAt": None, "isAnswered": True, "upvoteCount": 4, "author": {"login": "alice"},
              "category": {"name": "Q&A"}, "comments": {"totalCount": 3}}


def graphql(discussions):
    """GitHub's GraphQL endpoint: the discussion the POSTed variables name, else GraphQL's NOT_FOUND."""
    def fn(h):
        number = json.loads(h.body)["variables"]["number"]
        found = discussions.get(number)
        if found is None:
            return h.send(200, json.dumps({"data": {"repository": {"discussion": None}},
                                           "errors": [{"type": "NOT_FOUND"}]}).encode(), "application/json")
        h.send(200, json.dumps({"data": {"repository": {"discussion": found}}}).encode(), "application/json")
    return fn


def test_a_discussion_is_asked_of_graphql_with_a_post_and_the_token(site, run_cli, token):
    site.route("api.github.com", "/graphql", graphql({7: DISCUSSION}))
    res = run(run_cli, site, "https://github.com/o/r/discussions/7")
    assert res.returncode == 0, res.describe()
    m = res.one
    assert (m["title"], m["author"], m["summary"]) == ("How to X?", "alice", "I tried Y."), res.describe()
    assert m["site"] == {"engine": "github", "kind": "discussion", "state": "open", "number": 7, "comments": 3,
                         "score": 4, "accepted": True, "category": "Q&A", "createdAt": "2026-01-02T03:04:05Z",
                         "repository": "o/r"}
    assert site.auth("api.github.com") == [f"Bearer {TOKEN}"]
    [(host, path, ctype, body)] = site.posts
    assert (host, path, ctype) == ("api.github.com", "/graphql", "application/json")
    sent = json.loads(body)
    assert sent["variables"] == {"owner": "o", "name": "r", "number": 7}
    assert "discussion(number: $number)" in sent["query"]
    assert site.count("github.com") == 0


def test_a_discussions_card_has_its_status_line(site, run_cli, token):
    site.route("api.github.com", "/graphql", graphql({7: DISCUSSION}))
    res = run(run_cli, site, "--format", "markdown", "https://github.com/o/r/discussions/7", parse=False)
    assert res.returncode == 0, res.describe()
    assert "✓ answered · open · #7 · 3 comments · Q&A" in res.stdout, res.describe()


def test_a_discussion_without_a_token_reads_the_page(site, run_cli, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    site.route("api.github.com", "/graphql", graphql({7: DISCUSSION}))
    github_page(site, "/o/r/discussions/7")
    res = run(run_cli, site, "https://github.com/o/r/discussions/7")
    assert res.returncode == 0 and res.one["title"] == "The page itself" and "site" not in res.one, res.describe()
    assert site.count("api.github.com") == 0 and site.count("github.com", "/o/r/discussions/7") == 1


def test_a_graphql_errors_answer_reads_the_page(site, run_cli, token):
    site.route("api.github.com", "/graphql", graphql({}))
    github_page(site, "/o/r/discussions/7")
    res = run(run_cli, site, "https://github.com/o/r/discussions/7")
    assert res.returncode == 0 and res.one["title"] == "The page itself" and "site" not in res.one, res.describe()
    assert len(site.posts) == 1 and site.count("github.com", "/o/r/discussions/7") == 1


@pytest.mark.parametrize("status", [302, 307, 308])
def test_a_redirected_graphql_post_is_not_sent_again_and_reads_the_page(site, run_cli, token, status):
    site.route("api.github.com", "/graphql",
               lambda h: h.send(status, b"", "text/plain", [("Location", "https://other.example.test/graphql")]))
    site.route("other.example.test", "/graphql", graphql({7: DISCUSSION}))
    github_page(site, "/o/r/discussions/7")
    res = run(run_cli, site, "https://github.com/o/r/discussions/7")
    assert res.returncode == 0 and res.one["title"] == "The page itself" and "site" not in res.one, res.describe()
    assert [(h, p) for h, p, _, _ in site.posts] == [("api.github.com", "/graphql")]
    assert site.count("other.example.test") == 0


def test_two_discussions_on_one_tape_replay_each_its_own(site, run_cli, token, tmp_path):
    tape = tmp_path / "tape"
    second = dict(DISCUSSION, title="Another", number=8, isAnswered=False)
    site.route("api.github.com", "/graphql", graphql({7: DISCUSSION, 8: second}))
    links = ["https://github.com/o/r/discussions/7", "https://github.com/o/r/discussions/8"]
    recorded = run(run_cli, site, "--record", str(tape), *links)
    assert recorded.returncode == 0 and [o["title"] for o in recorded.objects] == ["How to X?", "Another"], recorded.describe()
    entries = json.loads((tape / "index.json").read_text())["entries"]
    posts = [e for e in entries if e["url"] == "https://api.github.com/graphql"]
    assert len(posts) == 2 and len({e["request"] for e in posts}) == 2 and all(e["request"].startswith("POST ") for e in posts)
    assert TOKEN not in (tape / "index.json").read_text()
    site.routes.clear()  # replay uses the tape, not the servers
    replayed = run_cli("fetch", "--no-subresources", "--replay", str(tape), *reversed(links))
    assert replayed.returncode == 0, replayed.describe()
    assert [(o["title"], o["site"]["accepted"]) for o in replayed.objects] == [("Another", False), ("How to X?", True)]
    assert len(site.posts) == 2


def config_file(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    path.chmod(0o600)
    return str(path)


def test_a_site_rules_token_goes_to_the_api_host_it_matches(site, run_cli, monkeypatch, tmp_path):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    site.route("api.github.com", PR_API, answer(PULL))
    rules = config_file(tmp_path, f'[[site]]\nmatch = "api.github.com"\ntoken = "{TOKEN}"\n')
    res = run(run_cli, site, "--config", rules, PR_URL)
    assert res.returncode == 0 and res.one["site"]["state"] == "merged", res.describe()
    assert site.auth("api.github.com") == [f"Bearer {TOKEN}"]


def test_a_site_rules_token_for_another_host_is_not_sent(site, run_cli, monkeypatch, tmp_path):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    site.route("api.github.com", PR_API, answer(PULL))
    rules = config_file(tmp_path, f'[[site]]\nmatch = "github.com"\ntoken = "{TOKEN}"\n')
    res = run(run_cli, site, "--config", rules, PR_URL)
    assert res.returncode == 0 and res.one["site"]["state"] == "merged", res.describe()
    assert site.auth("api.github.com") == [None]


def test_a_site_rule_with_sites_false_reads_the_page(site, run_cli, tmp_path):
    github_page(site)
    site.route("api.github.com", PR_API, answer(PULL))
    rules = config_file(tmp_path, '[[site]]\nmatch = "github.com"\nsites = false\n')
    assert_page(run(run_cli, site, "--config", rules, PR_URL), site)
    assert site.count("api.github.com") == 0

# ------------------------------------------------------------------ Stack Exchange, Wikipedia

QUESTION = {"items": [{"title": "Why is &quot;x&quot; faster?", "score": 231, "answer_count": 14,
                       "accepted_answer_id": 5, "tags": ["c++"], "owner": {"display_name": "Asker"},
                       "creation_date": 1340000000}], "backoff": 30}


def test_a_question_is_read_and_its_backoff_holds_the_api(site, make_client, token):
    site.route("api.stackexchange.com", "/2.3/questions/1", answer(QUESTION))
    site.route("stackoverflow.com", "/questions/2", page("Question two"))
    c = make_client(private=False, args=site.args)
    first = c.fetch("https://stackoverflow.com/questions/1/why", fetch_subresources=False)
    second = c.fetch("https://stackoverflow.com/questions/2", fetch_subresources=False)
    assert first["title"] == 'Why is "x" faster?' and first["author"] == "Asker"
    assert first["site"] == {"engine": "stackexchange", "kind": "question", "score": 231, "answers": 14,
                             "accepted": True, "tags": ["c++"], "createdAt": "2012-06-18T06:13:20Z"}
    assert second["title"] == "Question two" and "site" not in second
    assert site.count("api.stackexchange.com") == 1
    assert site.auth("api.stackexchange.com") == [None]  # GitHub's token goes to GitHub only


def test_a_throttle_violation_reads_the_page_and_holds_the_api(site, make_client):
    site.route("api.stackexchange.com", "/2.3/questions/1", answer({
        "error_id": 502, "error_name": "throttle_violation",
        "error_message": "too many requests from this IP, more requests available in 600 seconds"}, status=400))
    site.route("stackoverflow.com", "/questions/1", page("Question one"))
    site.route("stackoverflow.com", "/questions/2", page("Question two"))
    c = make_client(private=False, args=site.args)
    first = c.fetch("https://stackoverflow.com/questions/1", fetch_subresources=False)
    second = c.fetch("https://stackoverflow.com/questions/2", fetch_subresources=False)
    assert (first["title"], second["title"]) == ("Question one", "Question two")
    assert "site" not in first and "site" not in second
    assert site.count("api.stackexchange.com") == 1  # the second question's API request was never made


def test_an_article_is_read_from_the_summary(site, run_cli):
    site.route("en.wikipedia.org", "/api/rest_v1/page/summary/Swift_(programming_language)", answer({
        "type": "standard", "title": "Swift (programming language)", "lang": "en",
        "description": "General-purpose programming language", "extract": "Swift is a language.",
        "thumbnail": {"source": "https://upload.wikimedia.org/s.png", "width": 320, "height": 320}}))
    res = run(run_cli, site, "https://en.wikipedia.org/wiki/Swift_(programming_language)")
    assert res.returncode == 0, res.describe()
    m = res.one
    assert (m["title"], m["summary"], m["lang"]) == ("Swift (programming language)", "Swift is a language.", "en")
    assert m["image"] == {"url": "https://upload.wikimedia.org/s.png", "width": 320, "height": 320}
    assert m["site"] == {"engine": "wikipedia", "kind": "article", "language": "en",
                         "description": "General-purpose programming language"}
    assert site.count("en.wikipedia.org", "/wiki/Swift_(programming_language)") == 0


def test_sites_lists_the_engines(run_cli):
    res = run_cli("sites", parse=False)
    assert res.returncode == 0, res.describe()
    assert res.stdout.splitlines()[0] == "github" and "  github.com/OWNER/REPO/pull/N" in res.stdout
    assert "stackexchange" in res.stdout and "wikipedia" in res.stdout


def test_sites_option_turns_the_named_engines_off(site, make_client):
    github_page(site)
    site.route("api.github.com", PR_API, answer(PULL))
    c = make_client(private=False, args=site.args, init_options={"sites": ["github"]})
    assert "site" not in c.fetch(PR_URL, fetch_subresources=False)
    assert site.count("api.github.com") == 0 and site.count("github.com", "/o/r/pull/7") == 1


def test_sites_option_naming_no_engine_is_refused(make_client):
    from linkpeek_client import LinkPeekError
    c = make_client(initialize=False)
    with pytest.raises(LinkPeekError) as e:
        c.request("initialize", {"initializationOptions": {"sites": ["github", "gitbub"]}})
    assert e.value.code == -32602, e.value.message
    assert e.value.message == ("initializationOptions.sites names no site engine: gitbub "
                               "(the engines: github, stackexchange, wikipedia, arxiv, pypi, npm, crates, gitlab)")


def test_a_stale_site_preview_is_revalidated_with_the_apis_etag(site, make_client, tmp_path):
    etag = 'W/"pull-7"'

    def conditional(h):
        if h.headers.get("If-None-Match") == etag:
            return h.send(304, b"", "", [("ETag", etag)])
        return answer(PULL, headers=[("ETag", etag), ("Cache-Control", "max-age=60")])(h)

    site.route("api.github.com", PR_API, conditional)
    cache = tmp_path / "shared-cache"
    first = make_client(private=False, args=site.args, cache_dir=cache).fetch(PR_URL, fetch_subresources=False)
    later = make_client(private=False, args=[*site.args, "--clock-offset", "7200"], cache_dir=cache)
    second = later.fetch(PR_URL, fetch_subresources=False)
    assert first["site"]["state"] == "merged" and second["site"] == first["site"], second
    assert second["fromCache"] is True
    assert site.count("api.github.com") == 2 and site.count("github.com") == 0


ATOM = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <entry>
    <id>http://arxiv.org/abs/1706.03762v7</id>
    <updated>2023-08-02T00:41:18Z</updated>
    <published>2017-06-12T17:57:34Z</published>
    <title>Attention Is All You Need</title>
    <summary>The dominant sequence transduction models.</summary>
    <author><name>Ashish Vaswani</name></author>
    <author><name>Noam Shazeer</name></author>
    <author><name>Niki Parmar</name></author>
    <link title="pdf" href="https://arxiv.org/pdf/1706.03762v7" rel="related" type="application/pdf"/>
    <arxiv:primary_category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>"""


def test_a_paper_is_read_from_the_export_api_with_every_author(site, run_cli):
    site.route("export.arxiv.org", "/api/query", lambda h: h.send(200, ATOM, "application/atom+xml"))
    res = run(run_cli, site, "--format", "text", "https://arxiv.org/abs/1706.03762", parse=False)
    assert res.returncode == 0, res.describe()
    assert "Attention Is All You Need" in res.stdout and "cs.CL · 3 authors · submitted 2017-06-12" in res.stdout
    res = run(run_cli, site, "https://arxiv.org/pdf/1706.03762v7")
    m = res.one
    assert m["author"] == "Ashish Vaswani, Noam Shazeer, Niki Parmar"
    assert m["site"] == {"engine": "arxiv", "kind": "paper", "authors": ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
                         "category": "cs.CL", "createdAt": "2017-06-12T17:57:34Z",
                         "updatedAt": "2023-08-02T00:41:18Z", "pdf": "https://arxiv.org/pdf/1706.03762v7"}
    assert site.count("arxiv.org") == 0 and site.count("export.arxiv.org") == 2


def test_an_arxiv_error_feed_reads_the_page(site, run_cli):
    site.route("export.arxiv.org", "/api/query", lambda h: h.send(
        200, b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors</id>'
             b'<title>Error</title></entry></feed>', "application/atom+xml"))
    site.route("arxiv.org", "/abs/9999.99999", page("The abstract page"))
    res = run(run_cli, site, "https://arxiv.org/abs/9999.99999")
    assert res.one["title"] == "The abstract page" and "site" not in res.one, res.describe()


def test_a_package_is_read_from_its_registry(site, run_cli):
    site.route("pypi.org", "/pypi/requests/json", answer({
        "info": {"name": "requests", "version": "2.31.0", "summary": "HTTP for Humans.", "license": "Apache-2.0",
                 "project_urls": {"Source": "https://github.com/psf/requests"}},
        "urls": [{"upload_time_iso_8601": "2023-05-22T15:12:42.313790Z"}]}))
    res = run(run_cli, site, "--format", "markdown", "https://pypi.org/project/requests/", parse=False)
    assert res.returncode == 0, res.describe()
    assert "v2.31.0 · Apache-2.0 · 2023-05-22" in res.stdout, res.describe()
    assert site.count("pypi.org", "/project/requests/") == 0 and site.count("pypi.org", "/pypi/requests/json") == 1


MERGE_REQUEST = {"iid": 5, "title": "Faster", "state": "merged", "merged_at": "2026-01-05T00:00:00Z",
                 "labels": ["perf"], "user_notes_count": 2, "author": {"username": "a"}}


def test_gitlab_com_gets_its_token_and_a_users_host_never_does(site, run_cli, monkeypatch):
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    site.route("gitlab.com", "/api/v4/projects/g%2Fp/merge_requests/5", answer(MERGE_REQUEST))
    site.route("git.example.test", "/api/v4/projects/g%2Fp/merge_requests/5", answer(MERGE_REQUEST))
    res = run(run_cli, site, "--gitlab-host", "git.example.test", "--format", "text",
              "https://gitlab.com/g/p/-/merge_requests/5", "https://git.example.test/g/p/-/merge_requests/5", parse=False)
    assert res.returncode == 0, res.describe()
    assert res.stdout.count("merged · #5 · 2 comments · perf") == 2, res.describe()
    assert site.auth("gitlab.com") == [f"Bearer {TOKEN}"] and site.auth("git.example.test") == [None]


def test_a_gitlab_host_that_is_not_a_name_is_refused(run_cli):
    res = run_cli("fetch", "--gitlab-host", "git example", "https://gitlab.com/g/p")
    assert res.returncode == 2 and "--gitlab-host is not a plain DNS name: git example" in res.stderr, res.describe()


def test_an_lsp_hover_shows_the_status_line(site, make_client):
    site.route("api.github.com", PR_API, answer(PULL))
    c = make_client(private=False, args=site.args)
    c.fetch(PR_URL, fetch_subresources=False)  # cached: the hover answers from the cache
    c.did_open("file:///notes.md", f"see {PR_URL}\n")
    result = c.hover("file:///notes.md", 0, 6)
    assert result is not None and result["contents"]["kind"] == "markdown", result
    value = result["contents"]["value"]
    assert "**Faster hovers**" in value and "merged · #7 · 12 comments · bug, performance" in value, value
    assert site.count("api.github.com") == 1


# ------------------------------------------------------------------ follow-ups

REPO = {"full_name": "o/r", "description": "A repository.", "stargazers_count": 1234, "language": "Swift",
        "license": {"spdx_id": "MIT"}, "owner": {"login": "o"}}


def test_a_repository_follows_up_with_its_latest_release_under_the_same_token(site, run_cli, token):
    site.route("api.github.com", "/repos/o/r", answer(REPO))
    site.route("api.github.com", "/repos/o/r/releases/latest", answer({"tag_name": "v1.2.0"}))
    res = run(run_cli, site, "--format", "text", "https://github.com/o/r", parse=False)
    assert res.returncode == 0 and "★ 1234 · Swift · MIT · latest v1.2.0" in res.stdout, res.describe()
    assert site.auth("api.github.com") == [f"Bearer {TOKEN}"] * 2


def test_a_follow_up_that_fails_leaves_only_its_facts_out(site, run_cli):
    site.route("api.github.com", "/repos/o/r", answer(REPO))  # releases/latest: 404, no release
    res = run(run_cli, site, "https://github.com/o/r")
    assert res.returncode == 0, res.describe()
    assert res.one["title"] == "o/r" and res.one["site"]["stars"] == 1234 and "latestRelease" not in res.one["site"]
    assert site.count("api.github.com", "/repos/o/r/releases/latest") == 1 and site.count("github.com") == 0


def test_a_follow_up_obeys_the_site_rules(site, run_cli, tmp_path):
    site.route("api.github.com", "/repos/o/r", answer(REPO))
    site.route("api.github.com", "/repos/o/r/releases/latest", answer({"tag_name": "v1.2.0"}))
    rules = config_file(tmp_path, '[[site]]\nmatch = "api.github.com/repos/o/r/releases"\nfetch = "never"\n')
    res = run(run_cli, site, "--config", rules, "https://github.com/o/r")
    assert res.returncode == 0 and res.one["site"]["stars"] == 1234 and "latestRelease" not in res.one["site"], res.describe()
    assert site.count("api.github.com", "/repos/o/r/releases/latest") == 0


COMMIT = {"sha": "abc1234def", "commit": {"message": "Fix the cache\n\nLonger text.", "author": {"date": "2026-01-05T00:00:00Z"}}}
CHECK_RUNS = {"total_count": 2, "check_runs": [
    {"status": "completed", "conclusion": "success"}, {"status": "completed", "conclusion": "failure"}]}


def test_a_commit_follows_up_with_its_check_runs(site, run_cli):
    site.route("api.github.com", "/repos/o/r/commits/abc1234", answer(COMMIT))
    site.route("api.github.com", "/repos/o/r/commits/abc1234/check-runs", answer(CHECK_RUNS))
    res = run(run_cli, site, "https://github.com/o/r/commit/abc1234")
    assert res.returncode == 0 and res.one["site"]["checks"] == "failure", res.describe()
    assert res.one["title"] == "Fix the cache"


PACKAGE = {"name": "left-pad", "version": "1.3.0", "description": "String left pad", "license": "WTFPL"}


def test_an_npm_package_gets_its_release_date_from_the_packument(site, run_cli):
    site.route("registry.npmjs.org", "/left-pad/latest", answer(PACKAGE))
    site.route("registry.npmjs.org", "/left-pad", answer({"name": "left-pad", "time": {"1.3.0": "2018-04-09T01:11:42.240Z"}}))
    res = run(run_cli, site, "--format", "text", "https://www.npmjs.com/package/left-pad", parse=False)
    assert res.returncode == 0 and "v1.3.0 · WTFPL · 2018-04-09" in res.stdout, res.describe()
    assert site.count("www.npmjs.com") == 0


def test_a_packument_over_4_mib_is_left_out(site, run_cli):
    site.route("registry.npmjs.org", "/left-pad/latest", answer(PACKAGE))
    # The date is there, but past 4 MiB of other versions: the document is not read.
    versions = {f"0.0.{i}": "2015-01-01T00:00:00.000Z" for i in range(4 * 1024 * 1024 // 30 + 1)}
    site.route("registry.npmjs.org", "/left-pad", answer({"name": "left-pad", "time": {**versions, "1.3.0": "2018-04-09T01:11:42.240Z"}}))
    res = run(run_cli, site, "https://www.npmjs.com/package/left-pad")
    assert res.returncode == 0, res.describe()
    assert res.one["site"] == {"engine": "npm", "kind": "package", "version": "1.3.0", "license": "WTFPL"}, res.describe()
    assert "publishedTime" not in res.one and site.count("registry.npmjs.org", "/left-pad") == 1


def test_a_fetch_cancelled_during_a_follow_up_answers_nothing_and_caches_nothing(site, make_client):
    from linkpeek_client import LinkPeekError
    site.route("api.github.com", "/repos/o/r", answer(REPO))
    site.route("github.com", "/o/r", page("The page itself"))
    asked = threading.Event()

    def stalled(h):
        asked.set()
        time.sleep(3)
        answer({"tag_name": "v1.2.0"})(h)

    site.route("api.github.com", "/repos/o/r/releases/latest", stalled)
    c = make_client(private=False, args=site.args)
    fut = c.fetch_async("https://github.com/o/r", provider_id="repo", fetch_subresources=False)
    assert asked.wait(10), "the follow-up was never asked"
    c.cancel("repo")
    with pytest.raises(LinkPeekError) as e:
        fut.result(timeout=10)
    assert e.value.kind == "cancelled", (e.value.code, e.value.data)
    assert c.get_cached("https://github.com/o/r") is None
    assert site.count("github.com") == 0  # nor was the page read instead
