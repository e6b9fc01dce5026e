"""linkpeek fetch vs curl over ~500 local pages, at concurrency 16, side by side in one run.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_fetch.py [--rounds 3] [--pages 500] [--hosts 1]

Starts the fixture server with the pages of gen_pages.py, then per round runs
  linkpeek fetch --stdin --concurrency 16 --no-subresources --allow-private-network --no-cache   (all URLs)
  curl --parallel --parallel-max 16 (the same URLs, bodies to /dev/null)
alternating which goes first, and prints medians: pages/s, the ratio, CPU
time per page (user + system of the client process, from its rusage: target
≤ 0.8 ms for linkpeek), bytes read per page against head + 64 KiB, and
linkpeek's peak RSS against 50 MB. With `--server nginx` it also prints what
the server counted in its access log: connections per page (distinct
`$connection` numbers) and bytes sent per page (`$bytes_sent`, headers
included: what crossed the wire, including any rest of a response linkpeek
read only to keep its connection).
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
SLACK = 32 * KiB  # one curl write block past the limit
RSS_TARGET_MB = 50
CPU_TARGET_MS = 0.8


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(cmd: list, stdin: bytes | None, timeout: float) -> tuple[int, bytes, float, int, float]:
    """(exit code, stdout, wall seconds, peak RSS KB of the child (read every
    2 ms), CPU seconds of the child). The CPU time is what the reaped child
    added to this process's RUSAGE_CHILDREN (run_measured reaps it with
    wait4; the servers, also children, are reaped only at the end)."""
    before = _children_cpu()
    m = run_measured(cmd, stdin, timeout, poll=0.002)
    return m.returncode, m.stdout, m.seconds, m.peak_rss_kb, _children_cpu() - before


def run_linkpeek(binary: str, urls: list[str], timeout: float, prefix: list[str]):
    # --no-cache: every round measures the network, never answers from an earlier round's cache
    # (nor writes to ~/.cache/linkpeek).
    cmd = prefix + [binary, "fetch", "--stdin", "--concurrency", "16", "--no-subresources", "--allow-private-network",
                    "--no-cache"]
    rc, out, wall, rss, cpu = measured(cmd, ("\n".join(urls) + "\n").encode(), timeout)
    results = [json.loads(line) for line in out.splitlines() if line.strip()]
    return rc, results, wall, rss, cpu


def run_curl(curl: str, urls: list[str], timeout: float, cfg_dir: str, prefix: list[str]):
    cfg = Path(cfg_dir) / "urls.curlrc"
    cfg.write_text("".join(f'url = "{u}"\noutput = "/dev/null"\n' for u in urls))
    cmd = prefix + [curl, "--parallel", "--parallel-max", "16", "--silent", "--show-error", "--config", str(cfg)]
    rc, _, wall, rss, cpu = measured(cmd, None, timeout)
    return rc, wall, rss, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--hosts", type=int, default=1,
                    help="spread the pages over this many loopback servers (127.0.0.1, .2, …); linkpeek "
                         "runs at most 6 transfers per host, curl --parallel has no per-host limit")
    ap.add_argument("--server", choices=("python", "nginx"), default="python",
                    help="the page server: the integration tests' Python fixture server (default), or nginx "
                         "serving the same pages as files (a server whose own cost does not dominate)")
    ap.add_argument("--link", metavar="RATE",
                    help="run the clients across a link limited to RATE each way (tc syntax, e.g. 1gbit), "
                         "in a network namespace of their own, instead of over loopback")
    args = ap.parse_args()
    if args.link and args.hosts != 1:
        ap.error("--link serves from one address; leave --hosts at 1")
    for why in [nginx_server.available() if args.server == "nginx" else None,
                netlink.available() if args.link else None]:
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

    pages = gen_pages.generate(args.pages)
    with contextlib.ExitStack() as stack:
        prefix: list[str] = []
        hosts = [f"127.0.0.{i + 1}" for i in range(args.hosts)]
        if args.link:
            prefix = stack.enter_context(netlink.shaped_link(args.link))
            hosts = [netlink.SERVER_IP]
        if args.server == "nginx":
            block = gen_pages.shared_block()
            served = [stack.enter_context(nginx_server.nginx_serving(pages, block, host)) for host in hosts]
            bases = [s.base_url for s in served]
            logs = [s.log for s in served]
        else:
            servers = [stack.enter_context(_fixture(host, pages)) for host in hosts]
            bases = [s.base_url for s in servers]
            logs = []
        return measure(args, binary, curl, pages, bases, prefix, logs)


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


def measure(args, binary: str, curl: str, pages, bases: list[str], prefix: list[str], logs) -> int:
    urls = [bases[i % len(bases)] + p.path for i, p in enumerate(pages)]
    by_url = dict(zip(urls, pages))
    total_bytes = sum(p.size for p in pages)
    print(f"{len(pages)} pages, heads {min(len(p.head) for p in pages) // KiB}–{max(len(p.head) for p in pages) // KiB} KB, "
          f"bodies {min(p.body_len for p in pages) // KiB} KB–{max(p.body_len for p in pages) // KiB // 1024} MB, "
          f"{total_bytes / 1e6:.0f} MB in all, on {len(bases)} host(s), {args.server} server, "
          f"{'link ' + args.link if args.link else 'loopback'}; {args.rounds} rounds; {binary}")

    lp_rate, curl_rate, lp_rss, curl_rss, over, failures, per_page = [], [], [], [], [], [], []
    lp_cpu, curl_cpu, lp_conns, curl_conns, lp_sent, curl_sent = [], [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = ("linkpeek", "curl") if r % 2 == 0 else ("curl", "linkpeek")
            for who in order:
                server_counts(logs)  # start this run's count from here
                if who == "linkpeek":
                    rc, results, wall, rss, cpu = run_linkpeek(binary, urls, args.timeout, prefix)
                    lp_cpu.append(cpu * 1000 / len(urls))
                    if rc not in (0, 1):
                        print(f"  round {r + 1}: linkpeek exited with status {rc} after {len(results)} results"
                              + (f" (signal {-rc})" if rc < 0 else ""))
                    ok = sum(1 for o in results if "error" not in o)
                    lp_rate.append(ok / wall)  # previews per second: failures and crashes count for nothing
                    lp_rss.append(rss / 1024)
                    bad = [o for o in results if "error" in o]
                    failures.append(len(bad) + (len(urls) - len(results)))
                    read = [o.get("bytesRead", 0) for o in results if "error" not in o]
                    per_page.append(statistics.mean(read) if read else 0)
                    over.append(sum(1 for o in results if "error" not in o
                                    and o.get("bytesRead", 0) > len(by_url[o["originalURL"]].head) + SCAN + SLACK))
                    if bad and r == 0:
                        print(f"  linkpeek errors, e.g. {bad[0]}")
                    conns, sent = lp_conns, lp_sent
                else:
                    rc, wall, rss, cpu = run_curl(curl, urls, args.timeout, tmp, prefix)
                    curl_cpu.append(cpu * 1000 / len(urls))
                    curl_rate.append(len(urls) / wall)
                    curl_rss.append(rss / 1024)
                    if rc != 0:
                        print(f"  curl exit {rc}")
                    conns, sent = curl_conns, curl_sent
                if logs:
                    time.sleep(0.2)  # nginx logs a request when it is done with it
                    _, connections, bytes_sent = server_counts(logs)
                    conns.append(connections / len(urls))
                    sent.append(bytes_sent / len(urls))

    med = statistics.median
    head_mean = statistics.mean(len(p.head) for p in pages)
    ratio = med(lp_rate) / med(curl_rate)
    rows = [
        ("pages/s (median)", f"{med(lp_rate):.0f}", f"{med(curl_rate):.0f}", f"linkpeek/curl = {ratio:.2f} (target ≥ 1)"),
        ("CPU ms / page (median)", f"{med(lp_cpu):.2f}", f"{med(curl_cpu):.2f}",
         f"user + system of the client (target ≤ {CPU_TARGET_MS} ms)"),
        ("bytes read / page (mean)", f"{med(per_page) / KiB:.0f} KiB", f"{total_bytes / len(pages) / KiB:.0f} KiB",
         f"head {head_mean / KiB:.0f} KiB + 64 KiB = {(head_mean + SCAN) / KiB:.0f} KiB"),
        ("pages over head+64 KiB", f"{max(over)}", "-", "target 0"),
        ("peak RSS (median)", f"{med(lp_rss):.1f} MB", f"{med(curl_rss):.1f} MB", f"target ≤ {RSS_TARGET_MB} MB"),
        ("failed fetches (max)", f"{max(failures)}", "-", "target 0"),
    ]
    if logs:
        rows[2:2] = [
            ("connections / page (median)", f"{med(lp_conns):.3f}", f"{med(curl_conns):.3f}",
             "distinct nginx $connection numbers / pages"),
            ("server bytes sent / page", f"{med(lp_sent) / KiB:.0f} KiB", f"{med(curl_sent) / KiB:.0f} KiB",
             "nginx $bytes_sent: what went over the wire"),
        ]
    w = [max(len(r[i]) for r in rows + [("", "linkpeek", "curl", "")]) for i in range(4)]
    print(f"\n{'':{w[0]}}  {'linkpeek':>{w[1]}}  {'curl':>{w[2]}}  note")
    for a, b, c, d in rows:
        print(f"{a:{w[0]}}  {b:>{w[1]}}  {c:>{w[2]}}  {d}")
    print(f"\nrounds: linkpeek pages/s {[round(x) for x in lp_rate]}, curl pages/s {[round(x) for x in curl_rate]}, "
          f"linkpeek CPU ms/page {[round(x, 2) for x in lp_cpu]}, linkpeek RSS MB {[round(x, 1) for x in lp_rss]}")
    ok = (ratio >= 1 and max(over) == 0 and med(lp_rss) <= RSS_TARGET_MB and max(failures) == 0
          and med(lp_cpu) <= CPU_TARGET_MS)
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
