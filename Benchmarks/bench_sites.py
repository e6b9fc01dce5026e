"""A site link's first answer from its API against the page fetch it replaces,
whole process, on loopback TLS.

    LINKPEEK_BIN=.build/release/linkpeek .venv/bin/python Benchmarks/bench_sites.py [--runs 30]
        [--bin OTHER]... [--only github,npm] [--max-seconds 900]

One HTTPS server (a test CA made here with `openssl`, as the integration
suite does) answers under the real host names, mapped with `--resolve` to
a loopback address: each engine's API (the integration and editor suites'
hand-written answers, imported from Tests/, with the follow-ups a
repository's latest release, a commit's check runs and an npm package's
document) and each link's own page, generated here in the shape of the
real ones: 200–500 KB of HTML whose head carries its title and Open Graph
tags first, then 60 more metas and links and a few inline scripts and
styles, then the body. The server listens on port 443 of 127.0.0.N when it
may (root); otherwise on a free port behind a CONNECT proxy that opens every
tunnel to it (`--proxy`), which both paths then pay alike.

For each link and binary, per round, the two runs take turns (which goes
first alternates by round):

  sites   linkpeek fetch --no-subresources --no-cache <network flags> URL
  page    the same with --no-sites: the page read instead of the API

`GITHUB_TOKEN` is set (a made-up one) so that the discussion link is the
GitHub engine's (GraphQL answers only with a token). Before timing, one run
of each is checked: the sites run's preview has the engine's `site`
object and asked no page, the page run's has none and read the page.
Printed per link: the API requests a sites run makes, the page's size,
p50 of each (ms, spawn to exit), their ratio, the median of the
per-round ratios, and p50 of each run's CPU (user + system ms): on a busy
machine the wall times are mostly waiting for a core. Every run is bounded (30 s), the whole by
`--max-seconds` (rounds stop there); the server and proxy are shut down and
any child left is killed by its pid.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "Tests" / "integration"), str(REPO / "Tests" / "editors"), str(REPO / "protocol" / "python"),
                str(REPO / "Benchmarks")]

import gen_pages  # noqa: E402
from background_server import BackgroundServer  # noqa: E402
from editor_sites import ANSWERS, NAMES  # noqa: E402
from test_oembed_walls import Server, TunnelProxy  # noqa: E402
from test_sites import ATOM, CHECK_RUNS, COMMIT, DISCUSSION, Site, answer, graphql, make_handler  # noqa: E402
from tls_fixture import TestCA  # noqa: E402

RUN_TIMEOUT = 30


def api(host, path):
    """The editor suite's answer for (host, path) as a route."""
    return (host, path, answer(ANSWERS[(host, path)]))


@dataclass
class Case:
    label: str
    engine: str
    url: str
    routes: list = field(default_factory=list)  # (host, path, handler) of the API
    page_kb: int = 300


CASES = [
    Case("github pull request", "github", "https://github.com/o/r/pull/7",
         [api("api.github.com", "/repos/o/r/pulls/7")], 420),
    Case("github repository + latest release", "github", "https://github.com/o/r",
         [api("api.github.com", "/repos/o/r"), api("api.github.com", "/repos/o/r/releases/latest")], 480),
    Case("github commit + check runs", "github", "https://github.com/o/r/commit/abc1234",
         [("api.github.com", "/repos/o/r/commits/abc1234", answer(COMMIT)),
          ("api.github.com", "/repos/o/r/commits/abc1234/check-runs", answer(CHECK_RUNS))], 300),
    Case("github discussion (GraphQL POST)", "github", "https://github.com/o/r/discussions/7",
         [("api.github.com", "/graphql", graphql({7: DISCUSSION}))], 380),
    Case("stackexchange question", "stackexchange", "https://stackoverflow.com/questions/1/why",
         [api("api.stackexchange.com", "/2.3/questions/1")], 320),
    Case("npm package + release date", "npm", "https://www.npmjs.com/package/left-pad",
         [api("registry.npmjs.org", "/left-pad/latest"), api("registry.npmjs.org", "/left-pad")], 220),
    Case("gitlab merge request", "gitlab", "https://gitlab.com/g/p/-/merge_requests/5",
         [api("gitlab.com", "/api/v4/projects/g%2Fp/merge_requests/5")], 260),
    Case("wikipedia article", "wikipedia", "https://en.wikipedia.org/wiki/Swift_(programming_language)",
         [api("en.wikipedia.org", "/api/rest_v1/page/summary/Swift_(programming_language)")], 360),
    Case("arxiv paper (Atom)", "arxiv", "https://arxiv.org/abs/1706.03762",
         [("export.arxiv.org", "/api/query", lambda h: h.send(200, ATOM, "application/atom+xml"))], 200),
    Case("pypi project", "pypi", "https://pypi.org/project/requests/",
         [api("pypi.org", "/pypi/requests/json")], 240),
    Case("crates.io crate", "crates", "https://crates.io/crates/serde",
         [api("crates.io", "/api/v1/crates/serde")], 200),
]


def page_bytes(title: str, kb: int, seed: int) -> bytes:
    """A page of `kb` KB: the title and Open Graph tags first in the head, as
    the sites put them, then the head's other metas, links, scripts and
    styles (gen_pages's), then body markup."""
    rng = random.Random(seed)
    head = ['<!DOCTYPE html>\n<html lang="en"><head>\n<meta charset="utf-8">\n',
            f"<title>{title}</title>\n",
            f'<meta name="description" content="{gen_pages._text(rng, 25)}">\n',
            f'<meta property="og:title" content="{title}">\n',
            f'<meta property="og:description" content="{gen_pages._text(rng, 25)}">\n',
            f'<meta property="og:image" content="https://images.example/{seed}.png">\n',
            '<meta property="og:site_name" content="The site">\n',
            '<meta property="og:type" content="object">\n',
            '<meta name="twitter:card" content="summary_large_image">\n']
    head += [gen_pages._tag(rng, seed) for _ in range(60)]
    head += [gen_pages._code(rng) for _ in range(6)]
    parts = head + ["</head>\n<body>\n"]
    size = sum(len(p) for p in parts)
    while size < kb * 1000:
        piece = gen_pages._block_piece(rng)
        parts.append(piece)
        size += len(piece)
    parts.append("</body></html>\n")
    return "".join(parts).encode()


def page_title(case: Case) -> str:
    return f"The page of {case.label}"


@contextlib.contextmanager
def serve(ca: TestCA, site: Site):
    """The HTTPS server for every name; yields linkpeek's network flags."""
    handler = make_handler(site)
    # Each answer goes as its head and then its body, two writes: without
    # TCP_NODELAY a small body waits for the ACK of the head, which the
    # client delays (40 ms on Linux), as no API server makes it wait.
    handler.disable_nagle_algorithm = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(ca.leaf[0]), str(ca.leaf[1]))
    address = f"127.0.{random.randrange(1, 250)}.{random.randrange(2, 250)}"
    try:
        httpd = Server((address, 443), handler)
        direct = True
    except OSError:  # not allowed to listen on 443: a tunnel proxy to a free port
        httpd = Server(("127.0.0.1", 0), handler)
        address, direct = "127.0.0.1", False
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    flags = ["--cacert", str(ca.cert), "--allow-network", "127.0.0.0/8",
             *[a for name in NAMES for a in ("--resolve", f"{name}:443:{address}")]]
    with BackgroundServer(httpd) as bg:
        if direct:
            print(f"server: {address}:443, direct")
            yield flags
            return
        proxy = TunnelProxy(bg.port).start()
        print(f"server: 127.0.0.1:{bg.port} behind a CONNECT proxy (not allowed to listen on 443)")
        try:
            yield ["--proxy", proxy.url(), *flags]
        finally:
            proxy.stop()


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(argv, env):
    """(wall ms, CPU ms, stdout, stderr, status) of one whole process, bounded; killed by its pid if it overruns.
    The CPU is the process's user + system time (the runs go one at a time)."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        out, err = p.communicate(timeout=RUN_TIMEOUT)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p.pid, signal.SIGKILL)
        p.communicate(timeout=10)
        raise
    return (time.perf_counter() - start) * 1000, (cpu_of_children() - cpu) * 1000, out, err, p.returncode


def argv_of(binary, flags, case, sites):
    return [binary, "fetch", "--no-subresources", "--no-cache", *flags, *([] if sites else ["--no-sites"]), case.url]


def check(binary, flags, env, site, case):
    """One run of each, checked; returns the API requests a sites run made."""
    parts = urllib.parse.urlsplit(case.url)
    before = len(site.seen)
    _, _, out, err, status = run(argv_of(binary, flags, case, True), env)
    seen = site.seen[before:]
    preview = json.loads(out) if status == 0 else {}
    if preview.get("site", {}).get("engine") != case.engine or (parts.hostname, parts.path) in [(h, p) for h, p, _ in seen]:
        raise SystemExit(f"{case.label}: the sites run did not answer from the API: {status} {out[:300]!r} "
                         f"{err[-600:]!r} seen {seen}")
    api_requests = len(seen)
    before = len(site.seen)
    _, _, out, err, status = run(argv_of(binary, flags, case, False), env)
    preview = json.loads(out) if status == 0 else {}
    if preview.get("title") != page_title(case) or "site" in preview or site.count(parts.hostname, parts.path) < 1:
        raise SystemExit(f"{case.label}: the page run did not read the page: {status} {out[:300]!r} {err[-600:]!r}")
    return api_requests


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", action="append", help="a linkpeek binary (repeatable; default $LINKPEEK_BIN)")
    ap.add_argument("--runs", type=int, default=30, help="rounds (each: every link, both ways, every binary)")
    ap.add_argument("--only", help="comma-separated engine names (github, npm, …)")
    ap.add_argument("--max-seconds", type=float, default=900, help="stop the rounds after this long")
    args = ap.parse_args()
    binaries = args.bin or [os.environ.get("LINKPEEK_BIN", str(REPO / ".build" / "release" / "linkpeek"))]
    cases = [c for c in CASES if not args.only or c.engine in args.only.split(",")]
    print(subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip())
    with tempfile.TemporaryDirectory(prefix="linkpeek-bench-sites-") as tmp:
        ca = TestCA(Path(tmp) / "ca")
        ca.leaf = ca.issue(NAMES)
        site = Site()
        for n, case in enumerate(cases):
            for host, path, fn in case.routes:
                site.route(host, path, fn)
            parts = urllib.parse.urlsplit(case.url)
            body = page_bytes(page_title(case), case.page_kb, n)
            site.route(parts.hostname, parts.path, lambda h, body=body: h.send(200, body))
        env = {k: v for k, v in os.environ.items() if not k.startswith("LINKPEEK_")}
        env.update(GITHUB_TOKEN="ghp_bench0123456789", XDG_CONFIG_HOME=str(Path(tmp) / "config"),
                   XDG_CACHE_HOME=str(Path(tmp) / "cache"))
        with serve(ca, site) as flags:
            requests = {}
            for binary in binaries:
                for case in cases:
                    requests[(binary, case.label)] = check(binary, flags, env, site, case)
            times = {(b, c.label, s): [] for b in binaries for c in cases for s in (True, False)}
            cpus = {(b, c.label, s): [] for b in binaries for c in cases for s in (True, False)}
            ratios = {(b, c.label): [] for b in binaries for c in cases}
            started = time.monotonic()
            rounds = 0
            for r in range(args.runs):
                if time.monotonic() - started > args.max_seconds:
                    break
                for case in cases:
                    for binary in binaries:
                        got = {}
                        for sites in ((True, False) if r % 2 == 0 else (False, True)):
                            ms, cpu, _, err, status = run(argv_of(binary, flags, case, sites), env)
                            if status != 0:
                                raise SystemExit(f"{case.label}: exit {status}: {err[-600:]!r}")
                            got[sites] = ms
                            times[(binary, case.label, sites)].append(ms)
                            cpus[(binary, case.label, sites)].append(cpu)
                        ratios[(binary, case.label)].append(got[True] / got[False])
                rounds += 1
    print(f"{rounds} rounds, {len(cases)} links, {len(binaries)} binaries; p50 ms of the whole process")
    for binary in binaries:
        print(f"\n{binary}")
        print(f"{'link':<36} {'API req':>7} {'page KB':>8} {'sites p50':>10} {'page p50':>9} {'ratio':>6} {'paired':>7} "
              f"{'CPU sites / page':>17}")
        for case in cases:
            on = statistics.median(times[(binary, case.label, True)])
            off = statistics.median(times[(binary, case.label, False)])
            paired = statistics.median(ratios[(binary, case.label)])
            cpu_on = statistics.median(cpus[(binary, case.label, True)])
            cpu_off = statistics.median(cpus[(binary, case.label, False)])
            print(f"{case.label:<36} {requests[(binary, case.label)]:>7} {case.page_kb:>8} {on:>10.1f} {off:>9.1f} "
                  f"{on / off:>6.2f} {paired:>7.2f} {cpu_on:>8.1f} / {cpu_off:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
