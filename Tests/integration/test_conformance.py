"""Conformance of linkpeek over the open link-preview corpus, both ways.

For every case of the corpus (a directory with `page.html` and
`expected.json`), the test runs the built binary two ways:

- parse: `linkpeek parse --url <expected url> <case>/page.html`;
- fetch: the test serves every `page.html` from a loopback HTTP server it
  starts (as `text/html`, at the case URL's path, chosen by the Host header)
  and runs one `linkpeek fetch --stdin --no-subresources --no-oembed` over the case URLs,
  each rewritten to `http://<host>:<port>/<path>` and pointed at 127.0.0.1
  with `--resolve <host>:<port>:127.0.0.1`. The page is read over HTTP, with
  the live fetch's early stop and read budget. URLs in the output that name
  the rewritten origin are mapped back to the case's own origin before
  scoring (the page's relative links resolve against the served address).

Each way maps LinkMetadata to the scorer's field names, writes one JSON
object per case, runs the corpus's own scorer in place (`score.py`, never
copied) and requires the score not to fall below its floor; the fetch way
must also stay within FETCH_GAP points of the parse way.

Environment:
    LINKPEEK_CORPUS  the corpus root (holding score.py and metascraper/);
                     default ../shared/corpus relative to the repository root.
    LINKPEEK_BIN     the binary; default .build/debug/linkpeek under the root.

Run:  swift build --product linkpeek && python3 -m pytest -s Tests/integration/test_conformance.py
"""
import http.server
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

import suite_guard

from background_server import BackgroundServer

REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("LINKPEEK_CORPUS", REPO_ROOT.parent / "shared" / "corpus"))
SOURCE = CORPUS / "metascraper"
BIN = Path(os.environ.get("LINKPEEK_BIN", REPO_ROOT / ".build" / "debug" / "linkpeek"))

# Set just under the measured scores, so that a regression in the rules, the
# scanner, the fetch's stop rule or the CLI fails here; raise them when the
# scores improve. (Lowered from 92.8 when `title` began to drop a site-name
# affix: metascraper's titles keep it; with the titles as written
# the parse score is unchanged, printed as the informational line. Lowered
# from 90.6, likewise, when an og:title's "(Published 2017)" that the h1
# lacks began to go.)
FLOOR = 90.4
FETCH_FLOOR = 90.0
# How far the network path may trail `parse` on the same pages (points):
# the goal of reading the head first. After a head that gave the main fields the fetch reads
# the body unparsed and parses it only once it shows a sign of a missing
# field (BodyEvidence), within 16 KiB (a page without author or date: up to
# 128 KiB, searched past the 64 KiB budget; an article that gave neither by
# then: 1 MiB, for bylines at 255 and 688 KiB of body). Measured: no gap
# (610 = 610 of 674).
FETCH_GAP = 1.0

# LinkMetadata field -> the scorer's field; media fields give their `url`.
FIELD_MAP = {
    "title": "title",
    "summary": "description",
    "siteName": "siteName",
    "image": "image",
    "icon": "icon",
    "author": "author",
    "publishedTime": "published",
    "lang": "lang",
    "video": "video",
    "audio": "audio",
    "canonicalURL": "canonical",
    "type": "type",
}


def to_scorer_fields(metadata):
    """The scorer's shape of one LinkMetadata JSON object."""
    out = {}
    for ours, theirs in FIELD_MAP.items():
        value = metadata.get(ours)
        if isinstance(value, dict):
            value = value.get("url")
        if value not in (None, ""):
            out[theirs] = value
    # metascraper's `url` is the page's canonical address, which is the page
    # itself when it declares none; ours keeps the two apart
    # (canonicalURL = declared, url = where it was found).
    if "canonical" not in out and metadata.get("url"):
        out["canonical"] = metadata["url"]
    # Not scored (the scorer reads only its field names): the title as the
    # page wrote it, for the informational "titles as written" line.
    if metadata.get("rawTitle"):
        out["_rawTitle"] = metadata["rawTitle"]
    return out


def find_cases(source):
    return sorted(p.parent for p in source.glob("*/expected.json") if (p.parent / "page.html").is_file())


def case_url(case):
    return json.loads((case / "expected.json").read_text(encoding="utf-8"))["url"]


def write_output(outdir, case, output):
    (outdir / (case.name + ".json")).write_text(json.dumps(output, ensure_ascii=False, indent=1), encoding="utf-8")


def run_case(case, outdir):
    """Runs `linkpeek parse` on one case; returns an error text, or None."""
    url = case_url(case)
    try:
        proc = subprocess.run(
            [str(BIN), "parse", "--url", url, str(case / "page.html")],
            capture_output=True, timeout=120, check=False,
        )
    except subprocess.TimeoutExpired:
        return "%s: timed out" % case.name
    output = {}
    error = None
    if proc.returncode != 0:
        error = "%s: exit %d: %s" % (case.name, proc.returncode, proc.stderr.decode(errors="replace")[-500:])
    else:
        try:
            output = to_scorer_fields(json.loads(proc.stdout))
        except ValueError as exc:
            error = "%s: stdout is not one JSON object (%s)" % (case.name, exc)
    write_output(outdir, case, output)
    return error


class CorpusServer(BackgroundServer):
    """Serves each case's page.html at its URL's path, picked by the Host
    header, as text/html; 404 for anything else. 127.0.0.1, ephemeral port."""

    def __init__(self, cases):
        self.pages = {}
        for case in cases:
            parts = urlsplit(case_url(case))
            target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
            self.pages[(parts.hostname.lower(), target)] = case / "page.html"
        pages = self.pages

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                host = (self.headers.get("Host") or "").rsplit(":", 1)[0].lower()
                page = pages.get((host, self.path))
                body = page.read_bytes() if page else b"not found"
                self.send_response(200 if page else 404)
                self.send_header("Content-Type", "text/html" if page else "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the early stop: linkpeek read what it needed

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # a client that stops reading early is expected

        super().__init__(Server(("127.0.0.1", 0), Handler))


def served_url(url, port):
    """The case URL at the loopback server: http, the same host and path, `port`."""
    parts = urlsplit(url)
    return urlunsplit(("http", "%s:%d" % (parts.hostname, port), parts.path or "/", parts.query, ""))


def unserve(value, served_origin, origin):
    """`value` with the served origin put back to the case's own."""
    if isinstance(value, str) and value.lower().startswith(served_origin.lower()):
        return origin + value[len(served_origin):]
    return value


def run_fetch(cases, outdir):
    """Fetches every case from a loopback server in one `linkpeek fetch`;
    returns error texts."""
    with CorpusServer(cases) as server:
        urls = [case_url(case) for case in cases]
        hosts = sorted({urlsplit(url).hostname for url in urls})
        # --no-oembed: pages of the corpus name public oEmbed endpoints; the fetch stays on loopback even
        # when this test is run by hand outside the sandbox.
        argv = [str(BIN), "fetch", "--stdin", "--no-subresources", "--no-oembed", "--allow-private-network",
                "--cache-policy", "reload", "--timeout", "60", "--concurrency", "8"]
        for host in hosts:
            argv += ["--resolve", "%s:%d:127.0.0.1" % (host, server.port)]
        stdin = "".join(served_url(url, server.port) + "\n" for url in urls)
        proc = subprocess.run(argv, input=stdin.encode(), capture_output=True, timeout=300, check=False)
    lines = proc.stdout.decode(errors="replace").splitlines()
    if len(lines) != len(cases):
        return ["fetch printed %d lines for %d cases (exit %d): %s"
                % (len(lines), len(cases), proc.returncode, proc.stderr.decode(errors="replace")[-500:])]
    errors = []
    for case, url, line in zip(cases, urls, lines):
        parts = urlsplit(url)
        origin = "%s://%s" % (parts.scheme, parts.netloc)
        served_origin = "http://%s:%d" % (parts.hostname, server.port)
        metadata = json.loads(line)
        if "error" in metadata:
            errors.append("%s: %s" % (case.name, metadata["error"]))
            metadata = {}
        for key, value in list(metadata.items()):
            if isinstance(value, dict) and "url" in value:
                value["url"] = unserve(value["url"], served_origin, origin)
            else:
                metadata[key] = unserve(value, served_origin, origin)
        write_output(outdir, case, to_scorer_fields(metadata))
    return errors


def score(outdir):
    """Runs the corpus's scorer; returns (percent, its output)."""
    scored = subprocess.run(
        [sys.executable, str(CORPUS / "score.py"), str(SOURCE), str(outdir)],
        capture_output=True, text=True, check=False,
    )
    assert scored.returncode == 0, scored.stderr
    match = re.search(r"^score: (\d+)/(\d+) fields matched \(([\d.]+)%\)$", scored.stdout, re.M)
    assert match, "no score line in the scorer's output:\n" + scored.stdout
    return float(match.group(3)), scored.stdout


@pytest.fixture(scope="module")
def cases():
    if not (SOURCE.is_dir() and (CORPUS / "score.py").is_file()):
        # The only extraction gate: under CI it must not vanish quietly.
        message = ("conformance corpus not found at %s (set LINKPEEK_CORPUS to the directory holding score.py "
                   "and metascraper/)" % CORPUS)
        if suite_guard.in_ci():
            pytest.fail(message + ": under CI the corpus is required", pytrace=False)
        pytest.skip(message)
    assert BIN.is_file() and os.access(BIN, os.X_OK), \
        "linkpeek binary not found at %s: run `swift build --product linkpeek` or set LINKPEEK_BIN" % BIN
    found = find_cases(SOURCE)
    assert found, "no cases under %s" % SOURCE
    return found


@pytest.fixture(scope="module")
def parse_score(cases, tmp_path_factory):
    outdir = tmp_path_factory.mktemp("parse-outputs")
    # Each case is its own process, so threads run them in parallel well.
    workers = min(16, 2 * (os.cpu_count() or 2))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        errors = [e for e in pool.map(lambda case: run_case(case, outdir), cases) if e]
    percent, report = score(outdir)
    print("\nparse:\n" + report)
    # metascraper's titles are the page's as written, site name and all;
    # ours drop an affix shown to be the site's name (`rawTitle` keeps it).
    # For information only: the score with the titles as written.
    rawdir = tmp_path_factory.mktemp("parse-raw-titles")
    for path in outdir.glob("*.json"):
        output = json.loads(path.read_text(encoding="utf-8"))
        output["title"] = output.pop("_rawTitle", output.get("title"))
        (rawdir / path.name).write_text(json.dumps(output, ensure_ascii=False), encoding="utf-8")
    raw_percent, _ = score(rawdir)
    print("parse, titles as written (rawTitle): %.1f%% (informational, not asserted)" % raw_percent)
    assert not errors, "linkpeek parse failed on %d case(s):\n%s" % (len(errors), "\n".join(errors))
    return percent


def test_conformance(parse_score):
    assert parse_score >= FLOOR, "conformance score %.1f%% fell below the floor %.1f%%" % (parse_score, FLOOR)


def test_conformance_fetch(cases, parse_score, tmp_path):
    outdir = tmp_path / "fetch-outputs"
    outdir.mkdir()
    errors = run_fetch(cases, outdir)
    percent, report = score(outdir)
    print("\nfetch:\n" + report)
    assert not errors, "linkpeek fetch failed on %d case(s):\n%s" % (len(errors), "\n".join(errors))
    assert percent >= FETCH_FLOOR, "fetch conformance %.1f%% fell below the floor %.1f%%" % (percent, FETCH_FLOOR)
    assert percent >= parse_score - FETCH_GAP, \
        "fetch conformance %.1f%% trails parse (%.1f%%) by more than %.1f points" % (percent, parse_score, FETCH_GAP)
