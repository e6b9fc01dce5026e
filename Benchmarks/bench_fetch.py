"""linkpeek fetch against curl and a plain Python script, over ~500 local pages
served the way the web serves them, at concurrency 1 and 16, side by side in one run.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_fetch.py [--rounds 3] [--pages 500]
        [--no-gzip] [--server nginx|python] [--hosts N] [--link RATE] [--count-allocations] [--baseline BIN]
        [--set web|issue]

Pages (gen_pages.py, `--set web`): heads like news and shop pages (50–150
metas and links, JSON-LD blocks of 2–8 KB, inline scripts and styles), bodies
of 20 KB to 3 MB of body markup; `--set issue`: median page ~100 KB, head
~18 KB, half of them served without gzip. nginx serves them with `gzip on` (pre-compressed at level 6,
`nginx_server.py`) unless `--no-gzip`. Per round and per concurrency (1 and
16), in an order that rotates from round to round, four clients fetch every
page:

  linkpeek   linkpeek fetch --stdin --concurrency C --no-subresources --allow-private-network
             --cache-dir <fresh empty directory>   (the default cache on, empty: every page from the network)
  curl       curl -H 'Accept-Encoding: gzip' [--parallel --parallel-max C], bodies to /dev/null:
             the transfer only (the same compressed bytes on the wire, not decoded)
  curl -z    the same with --compressed: curl also inflates every whole page
  python     ref_client.py: requests + lxml, each whole page fetched and parsed, og:title by XPath
             (needs `pip install lxml`)

and prints per client the medians over rounds of CPU ms per page (user +
system of the client process, from its rusage), pages/s and peak RSS, with
CPU ratios to curl (transfer only) and to the Python script taken per round
(alternated runs, the same minute of a shared machine) and then their median.
With nginx it also builds floor.c (`cc`, zlib, libxml2) and runs it once
per round on the files nginx serves: the floor of any head reader (inflate
to `</head>`, libxml2 SAX push parse), for the head alone and for the bytes
linkpeek read of each page; the floor ratio is linkpeek's CPU per page over
the head's floor plus curl's transfer CPU per page, per round, then the
median (target ≤ 2).
Targets: that ratio ≤ 2 (curl's transfer alone, which only moves compressed
bytes, is no target by itself), ≥ 3× less than the script's, peak RSS
≤ 40 MB at concurrency 16; no page read past head + 136 KiB (the 64 KiB
budget, searched on to 128 KiB for a late byline or date, + 8 KiB after a
sign); no failure.
`--baseline BIN` adds another linkpeek binary (say, one built from main) to
the rotation, for before and after in one sitting. `--count-allocations`
runs linkpeek (and the baseline) once more per concurrency under a
counting allocator (malloc_count.c, built here with `cc`) and prints heap
allocations per page. With `--server nginx` it also prints what nginx
counted in its access log: connections per page and bytes sent per page.
It builds nothing: build the release binary first (`swift build -c release`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "Tests" / "integration"))

import gen_pages  # noqa: E402
import netlink  # noqa: E402
import nginx_server  # noqa: E402
from fixture_server import FixtureServer  # noqa: E402
from procinfo import run_measured  # noqa: E402

KiB = 1024
SCAN = 64 * KiB
SEARCH = 2 * SCAN + 8 * KiB  # a page without author or date: searched past the budget
SLACK = 32 * KiB  # one curl write block past the limit
RSS_TARGET_MB = 40
CPU_FROM_SCRIPT_TARGET = 3.0   # the Python script's CPU / linkpeek's, at least
FLOOR_TARGET = 2.0             # linkpeek CPU / (the head's floor + curl's transfer), at most
CONCURRENCIES = (1, 16)
CLIENTS = ("linkpeek", "curl", "curl -z", "python")
BASELINE = "baseline"  # a second linkpeek binary (--baseline), run like "linkpeek"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(cmd: list, stdin: bytes | None, timeout: float, env: dict | None = None):
    """(exit code, stdout, wall seconds, peak RSS KB of the child (read every
    2 ms), CPU seconds of the child). The CPU time is what the reaped child
    added to this process's RUSAGE_CHILDREN (run_measured reaps it with
    wait4; the servers, also children, are reaped only at the end)."""
    before = _children_cpu()
    if env is None:
        m = run_measured(cmd, stdin, timeout, poll=0.002)
    else:
        saved = dict(os.environ)
        os.environ.update(env)
        try:
            m = run_measured(cmd, stdin, timeout, poll=0.002)
        finally:
            os.environ.clear()
            os.environ.update(saved)
    return m.returncode, m.stdout, m.seconds, m.peak_rss_kb, _children_cpu() - before


class Run:
    """One client's run over every page at one concurrency."""

    def __init__(self, rc: int, wall: float, rss_kb: int, cpu: float, ok: int, results: list | None = None):
        self.rc, self.wall, self.rss_mb, self.cpu, self.ok, self.results = rc, wall, rss_kb / 1024, cpu, ok, results


def linkpeek_cmd(binary: str, concurrency: int, cache_dir: str, prefix: list[str]) -> list[str]:
    return prefix + [binary, "fetch", "--stdin", "--concurrency", str(concurrency), "--no-subresources",
                     "--allow-private-network", "--cache-dir", cache_dir]


def run_linkpeek(binary: str, urls: list[str], concurrency: int, timeout: float, tmp: str, prefix: list[str],
                 env: dict | None = None) -> Run:
    # The default cache, on and empty: a fresh directory per run, so every page
    # comes from the network and is written to the cache, as a first visit is.
    cache_dir = tempfile.mkdtemp(prefix="cache-", dir=tmp)
    cmd = linkpeek_cmd(binary, concurrency, cache_dir, prefix)
    rc, out, wall, rss, cpu = measured(cmd, ("\n".join(urls) + "\n").encode(), timeout, env)
    shutil.rmtree(cache_dir, ignore_errors=True)
    results = [json.loads(line) for line in out.splitlines() if line.strip()]
    return Run(rc, wall, rss, cpu, sum(1 for o in results if "error" not in o), results)


def run_curl(curl: str, urls: list[str], concurrency: int, decode: bool, timeout: float, tmp: str,
             prefix: list[str]) -> Run:
    cfg = Path(tmp) / "urls.curlrc"
    cfg.write_text("".join(f'url = "{u}"\noutput = "/dev/null"\n' for u in urls))
    cmd = prefix + [curl, "--silent", "--show-error", "--config", str(cfg)]
    cmd += ["--compressed"] if decode else ["--header", "Accept-Encoding: gzip"]
    if concurrency > 1:
        cmd += ["--parallel", "--parallel-max", str(concurrency)]
    rc, _, wall, rss, cpu = measured(cmd, None, timeout)
    return Run(rc, wall, rss, cpu, len(urls) if rc == 0 else 0)


def run_python(urls: list[str], concurrency: int, timeout: float, prefix: list[str]) -> Run:
    cmd = prefix + [sys.executable, str(HERE / "ref_client.py"), "--concurrency", str(concurrency)]
    rc, out, wall, rss, cpu = measured(cmd, ("\n".join(urls) + "\n").encode(), timeout)
    results = [json.loads(line) for line in out.splitlines() if line.strip()]
    return Run(rc, wall, rss, cpu, sum(1 for o in results if "error" not in o and o.get("status") == 200), results)


def count_allocations(binary: str, urls: list[str], concurrency: int, timeout: float, tmp: str,
                      prefix: list[str]) -> tuple[float, float] | None:
    """Heap allocations (calls, bytes) per page of one linkpeek run, under
    malloc_count.c preloaded; None where it cannot be built."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    lib = Path(tmp) / "malloc_count.so"
    if not lib.exists():
        subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(lib), str(HERE / "malloc_count.c")], check=True)
    out = Path(tmp) / "malloc_count.out"
    out.unlink(missing_ok=True)
    run_linkpeek(binary, urls, concurrency, timeout, tmp, prefix,
                 env={"LD_PRELOAD": str(lib), "MALLOC_COUNT_OUT": str(out)})
    if not out.exists():
        return None
    calls, total = map(int, out.read_text().split())
    return calls / len(urls), total / len(urls)


def build_floor(tmp: str) -> str | None:
    """floor.c built with cc against zlib and libxml2; None where it cannot be."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    out = Path(tmp) / "floor"
    built = subprocess.run([cc, "-O2", "-I/usr/include/libxml2", "-o", str(out), str(HERE / "floor.c"),
                            "-lxml2", "-lz"], capture_output=True)
    return str(out) if built.returncode == 0 else None


def run_floor(floor: str, tmp: str, served: list[tuple[Path, bool]], limits: list[int]) -> float:
    """The floor's CPU ms per page: each served file (path, gzip-encoded)
    inflated and parsed to its limit (0: to the end of the head)."""
    listing = Path(tmp) / "floor.list"
    listing.write_text("".join(f"{path} {int(gz)} {limit}\n" for (path, gz), limit in zip(served, limits)))
    out = subprocess.run([floor, str(listing)], capture_output=True, text=True, check=True).stdout
    return float(out.split(",")[1].split()[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--hosts", type=int, default=1,
                    help="spread the pages over this many loopback servers (127.0.0.1, .2, …); linkpeek "
                         "runs at most 6 transfers per host, curl --parallel has no per-host limit")
    ap.add_argument("--server", choices=("python", "nginx"), default="nginx",
                    help="the page server: nginx serving the pages as files (default), or the integration "
                         "tests' Python fixture server (which serves no gzip)")
    ap.add_argument("--no-gzip", action="store_true",
                    help="nginx serves the pages uncompressed (by default HTML is gzip-encoded, as on the web)")
    ap.add_argument("--link", metavar="RATE",
                    help="run the clients across a link limited to RATE each way (tc syntax, e.g. 1gbit), "
                         "in a network namespace of their own, instead of over loopback")
    ap.add_argument("--count-allocations", action="store_true",
                    help="also count linkpeek's heap allocations per page (malloc_count.c, built with cc)")
    ap.add_argument("--baseline", metavar="BIN",
                    help="another linkpeek binary (e.g. one built from main) run as one more client, "
                         "\"baseline\", in the same rotation: before and after in one sitting")
    ap.add_argument("--set", choices=sorted(gen_pages.SHAPES), default="web",
                    help="the page set (gen_pages.py): web (default) or issue (median page ~100 KB, head ~18 KB, "
                         "half served without gzip)")
    ap.add_argument("--clients", default=",".join(CLIENTS),
                    help=f"which clients to run, comma-separated (default: all of {', '.join(CLIENTS)})")
    ap.add_argument("--concurrency", default=",".join(map(str, CONCURRENCIES)),
                    help="the concurrencies to run, comma-separated (default 1,16)")
    args = ap.parse_args()
    if args.link and args.hosts != 1:
        ap.error("--link serves from one address; leave --hosts at 1")
    clients = [c.strip() for c in args.clients.split(",") if c.strip()]
    unknown = [c for c in clients if c not in CLIENTS]
    if unknown or not clients:
        ap.error(f"--clients: unknown client(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(CLIENTS)}")
    if args.baseline:
        if not os.access(args.baseline, os.X_OK):
            ap.error(f"--baseline: no executable at {args.baseline}")
        clients.append(BASELINE)
    try:
        concurrencies = [int(c) for c in args.concurrency.split(",") if c.strip()]
    except ValueError:
        ap.error("--concurrency: a comma-separated list of whole numbers, e.g. 1,16")
    if not concurrencies or any(not 1 <= c <= 64 for c in concurrencies):
        ap.error("--concurrency: each value between 1 and 64")
    if args.rounds < 1 or args.pages < 1:
        ap.error("--rounds and --pages: at least 1")
    gzip_html = args.server == "nginx" and not args.no_gzip
    needs = [nginx_server.available() if args.server == "nginx" else None,
             netlink.available() if args.link else None]
    if "python" in clients:
        try:
            import lxml  # noqa: F401
            import requests  # noqa: F401
        except ImportError as error:
            needs.append(f"the Python reference client needs requests and lxml ({error}; pip install lxml requests)")
    for why in needs:
        if why:
            print(f"cannot run this benchmark here: {why}", file=sys.stderr)
            return 2

    binary = os.environ.get("LINKPEEK_BIN") or str(REPO / ".build" / "release" / "linkpeek")
    if not os.access(binary, os.X_OK):
        print(f"no linkpeek binary at {binary}; build it (swift build -c release) or set LINKPEEK_BIN", file=sys.stderr)
        return 2
    curl = shutil.which("curl")
    if not curl:
        print("curl not found", file=sys.stderr)
        return 2

    pages = gen_pages.generate(args.pages, shape=args.set)
    with contextlib.ExitStack() as stack:
        prefix: list[str] = []
        hosts = [f"127.0.0.{i + 1}" for i in range(args.hosts)]
        if args.link:
            prefix = stack.enter_context(netlink.shaped_link(args.link))
            hosts = [netlink.SERVER_IP]
        if args.server == "nginx":
            block = gen_pages.shared_block()
            served = [stack.enter_context(nginx_server.nginx_serving(pages, block, host, gzip_html=gzip_html))
                      for host in hosts]
            bases = [s.base_url for s in served]
            logs = [s.log for s in served]
            files = [(served[0].root / p.path.lstrip("/"), gzip_html and p.gzip) for p in pages]
            files = [(path.with_name(path.name + ".gz") if gz else path, gz) for path, gz in files]
        else:
            servers = [stack.enter_context(_fixture(host, pages)) for host in hosts]
            bases = [s.base_url for s in servers]
            logs = []
            files = []
        return measure(args, binary, curl, pages, bases, prefix, logs, clients, concurrencies, gzip_html, files)


@contextlib.contextmanager
def _fixture(host: str, pages):
    server = FixtureServer(host=host).start()
    try:
        gen_pages.install(server, pages)
        yield server
    finally:
        server.stop()


def server_counts(logs) -> tuple[int, int, int]:
    """(requests, connections, bytes sent) the servers logged since the last call."""
    requests = connections = sent = 0
    for log in logs:
        rows = log.take()
        requests += len(rows)
        connections += len({c for c, _ in rows})
        sent += sum(b for _, b in rows)
    return requests, connections, sent


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def measure(args, binary, curl, pages, bases, prefix, logs, clients, concurrencies, gzip_html, files) -> int:
    urls = [bases[i % len(bases)] + p.path for i, p in enumerate(pages)]
    by_url = dict(zip(urls, pages))
    n = len(urls)
    total_bytes = sum(p.size for p in pages)
    print(f"{n} pages, heads {min(len(p.head) for p in pages) // KiB}–{max(len(p.head) for p in pages) // KiB} KB, "
          f"bodies {min(p.body_len for p in pages) // KiB}–{max(p.body_len for p in pages) // KiB} KB, "
          f"{total_bytes / 1e6:.0f} MB in all, on {len(bases)} host(s), {args.server} server "
          f"({'gzip on' if gzip_html else 'no gzip'}), {'link ' + args.link if args.link else 'loopback'}; "
          f"{args.rounds} rounds; set {args.set}, {sum(p.gzip for p in pages) if gzip_html else 0} of {n} "
          f"served gzip; {binary}")
    print(f"before: {_load()}")

    runs: dict[tuple[str, int], list[Run]] = {(c, k): [] for c in clients for k in concurrencies}
    conns: dict[tuple[str, int], list[float]] = {key: [] for key in runs}
    sent: dict[tuple[str, int], list[float]] = {key: [] for key in runs}
    problems: list[str] = []
    floors: dict[tuple[str, int], list[float]] = {(w, k): [] for w in ("head", "read", BASELINE) for k in concurrencies}
    with tempfile.TemporaryDirectory() as tmp:
        floor = build_floor(tmp) if files else None
        for r in range(args.rounds):
            for k in concurrencies:
                order = clients[r % len(clients):] + clients[:r % len(clients)]
                for who in order:
                    server_counts(logs)  # start this run's count from here
                    if who in ("linkpeek", BASELINE):
                        run = run_linkpeek(binary if who == "linkpeek" else args.baseline, urls, k, args.timeout, tmp,
                                           prefix)
                    elif who == "python":
                        run = run_python(urls, k, args.timeout, prefix)
                    else:
                        run = run_curl(curl, urls, k, who == "curl -z", args.timeout, tmp, prefix)
                    if run.rc != 0 and not (who in ("linkpeek", BASELINE) and run.rc == 1):
                        problems.append(f"round {r + 1}, {who} c{k}: exit status {run.rc}")
                    if run.ok < n:
                        bad = [o for o in (run.results or []) if "error" in o]
                        problems.append(f"round {r + 1}, {who} c{k}: {n - run.ok} of {n} pages failed"
                                        + (f", e.g. {bad[0]}" if bad else ""))
                    runs[(who, k)].append(run)
                    if logs:
                        time.sleep(0.2)  # nginx logs a request when it is done with it
                        _, connections, bytes_sent = server_counts(logs)
                        conns[(who, k)].append(connections / n)
                        sent[(who, k)].append(bytes_sent / n)
                if floor:
                    # The floor, for the head alone and for what each linkpeek client read of each page.
                    floors[("head", k)].append(run_floor(floor, tmp, files, [0] * n))
                    for who, key in (("linkpeek", "read"), (BASELINE, BASELINE)):
                        if who in clients:
                            read = {o["originalURL"]: o.get("bytesRead", 0) for o in runs[(who, k)][-1].results or []}
                            floors[(key, k)].append(run_floor(floor, tmp, files, [max(1, read.get(u, 0)) for u in urls]))
        allocations, base_allocations = {}, {}
        if args.count_allocations and "linkpeek" in clients:
            for k in concurrencies:
                allocations[k] = count_allocations(binary, urls, k, args.timeout, tmp, prefix)
                if args.baseline:
                    base_allocations[k] = count_allocations(args.baseline, urls, k, args.timeout, tmp, prefix)
    print(f"after: {_load()}")

    med = statistics.median

    def cpu_ms(run: Run) -> float:
        return run.cpu * 1000 / n

    def ratio(a: str, b: str, k: int) -> float | None:
        """Median over rounds of a's CPU / b's CPU (each round's pair ran back to back)."""
        if (a, k) not in runs or (b, k) not in runs:
            return None
        return med(x.cpu / y.cpu for x, y in zip(runs[(a, k)], runs[(b, k)]) if y.cpu > 0)

    ok = not problems
    for k in concurrencies:
        print(f"\nconcurrency {k}")
        header = ("client", "CPU ms/page", "× curl", "script ÷", "pages/s", "peak RSS")
        rows = []
        for who in clients:
            rs = runs[(who, k)]
            to_curl = ratio(who, "curl", k)
            from_script = ratio("python", who, k)
            rows.append((who, f"{med(cpu_ms(x) for x in rs):.2f}",
                         f"{to_curl:.2f}" if to_curl is not None else "-",
                         f"{from_script:.2f}" if from_script is not None else "-",
                         f"{med(x.ok / x.wall for x in rs):.0f}", f"{med(x.rss_mb for x in rs):.1f} MB"))
        w = [max(len(row[i]) for row in rows + [header]) for i in range(len(header))]
        print("  ".join(f"{h:>{w[i]}}" if i else f"{h:{w[i]}}" for i, h in enumerate(header)))
        for row in rows:
            print("  ".join(f"{c:>{w[i]}}" if i else f"{c:{w[i]}}" for i, c in enumerate(row)))
        print(f"(× curl: CPU over curl's, transfer only; script ÷: the Python script's CPU over this client's; "
              f"medians of per-round ratios)")
        if floors[("head", k)]:
            head_floor = med(floors[("head", k)])
            print(f"floor (floor.c): head {head_floor:.3f} ms/page; head + the bytes linkpeek read "
                  f"{med(floors[('read', k)]):.3f} ms/page" if floors[("read", k)] else
                  f"floor (floor.c): head {head_floor:.3f} ms/page")
            if floors[(BASELINE, k)]:
                print(f"floor of the bytes the baseline read {med(floors[(BASELINE, k)]):.3f} ms/page")
        for who in [c for c in ("linkpeek", BASELINE) if c in clients]:
            lp = runs[(who, k)]
            read = [statistics.mean(o.get("bytesRead", 0) for o in x.results if "error" not in o)
                    for x in lp if x.ok]
            over = max(sum(1 for o in x.results if "error" not in o
                           and o.get("bytesRead", 0) > len(by_url[o["originalURL"]].head) + SEARCH + SLACK)
                       for x in lp)
            head_mean = statistics.mean(len(p.head) for p in pages)
            print(f"{who}: bytes read per page (decoded) {med(read) / KiB:.0f} KiB (mean head {head_mean / KiB:.0f} "
                  f"KiB + 64 KiB = {(head_mean + SCAN) / KiB:.0f}); pages read past head + 136 KiB: {over}; "
                  f"CPU ms/page by round {[round(cpu_ms(x), 2) for x in lp]}")
            classes = {"main fields in head": [p.has_main_fields for p in pages],
                       "no main fields": [not p.has_main_fields for p in pages]}
            last = {o["originalURL"]: o.get("bytesRead", 0) for o in lp[-1].results or [] if "error" not in o}
            print(f"{who}: bytes read per page by class (decoded, mean head + body read): " + "; ".join(
                f"{name} {statistics.mean(last.get(u, 0) for u, m in zip(urls, mask) if m) / KiB:.0f} KiB "
                f"(head {statistics.mean(len(p.head) for p, m in zip(pages, mask) if m) / KiB:.0f})"
                for name, mask in classes.items() if any(mask)))
            if "curl" in clients and floors[("head", k)]:
                to_floor = med(x.cpu * 1000 / n / (f + c.cpu * 1000 / n)
                               for x, f, c in zip(lp, floors[("head", k)], runs[("curl", k)]))
                print(f"{who}: CPU / (head floor + curl transfer) {to_floor:.2f} (median of per-round ratios)")
                if who == "linkpeek":
                    ok = ok and to_floor <= FLOOR_TARGET
            if who != "linkpeek":
                continue
            ok = ok and over == 0
            if k in allocations and allocations[k]:
                calls, total = allocations[k]
                print(f"linkpeek: heap allocations per page {calls:,.0f} ({total / KiB:,.0f} KiB)")
                if base_allocations.get(k):
                    calls, total = base_allocations[k]
                    print(f"baseline: heap allocations per page {calls:,.0f} ({total / KiB:,.0f} KiB)")
            to_curl, from_script = ratio("linkpeek", "curl", k), ratio("python", "linkpeek", k)
            if from_script is not None:
                ok = ok and from_script >= CPU_FROM_SCRIPT_TARGET
            if k == 16:
                ok = ok and med(x.rss_mb for x in lp) <= RSS_TARGET_MB
        if BASELINE in clients:
            change = ratio("linkpeek", BASELINE, k)
            print(f"linkpeek CPU / baseline's: {change:.3f} (median of per-round ratios)")
        if "python" in clients:
            titles = [sum(1 for o in x.results if o.get("ogTitle")) for x in runs[("python", k)]]
            print(f"python: og:title found on {min(titles)} of {n} pages "
                  f"({sum(1 for p in pages if p.has_main_fields)} declare one)")
        if logs:
            print("nginx: connections / bytes sent per page: " + ", ".join(
                f"{who} {med(conns[(who, k)]):.3f} / {med(sent[(who, k)]) / KiB:.0f} KiB" for who in clients))
    for p in problems:
        print("problem: " + p)
    print(f"\ntargets: linkpeek CPU ≤ {FLOOR_TARGET:g}× (head floor + curl transfer), ≥ {CPU_FROM_SCRIPT_TARGET:g}× "
          f"less than the script's, peak RSS ≤ {RSS_TARGET_MB} MB at c16, no page past head + 136 KiB, no failure")
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
