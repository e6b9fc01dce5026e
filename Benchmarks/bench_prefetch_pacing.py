"""What politeness to one host costs `prefetch`: 50 links to one host
against 50 links spread over 25 hosts (2 each), side by side in one run,
each server answering after 50 ms. Prints the wall time, and the most
requests any one server had in flight at once (at most 2 by design).

    swift build && python3 Benchmarks/bench_prefetch_pacing.py [.build/debug/linkpeek]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "integration"))
sys.path.insert(0, str(REPO / "protocol" / "python"))

from linkpeek_client import LinkPeekClient  # noqa: E402
from test_polite import Recorder, page  # noqa: E402


def run(binary: str, hosts: int, per_host: int, delay: float = 0.05) -> tuple[float, int, int]:
    servers = [Recorder("127.0.0.1", {f"/p{i}": (lambda i: lambda h: page(f"P{i}"))(i) for i in range(per_host)})
               for _ in range(hosts)]
    for server in servers:
        server.delay = delay
        server.__enter__()
    try:
        with tempfile.TemporaryDirectory() as cache, \
                LinkPeekClient(binary, args=["--allow-private-network", "--cache-dir", cache]) as lp:
            urls = [s.url(f"/p{i}") for s in servers for i in range(per_host)]
            start = time.monotonic()
            result = lp.prefetch(urls, wait=300)
            return time.monotonic() - start, result["succeeded"], max(s.max_in_flight for s in servers)
    finally:
        for server in servers:
            server.__exit__()


def main() -> None:
    binary = sys.argv[1] if len(sys.argv) > 1 else str(REPO / ".build" / "debug" / "linkpeek")
    for hosts, per_host in ((1, 50), (25, 2), (1, 50), (25, 2)):
        seconds, succeeded, peak = run(binary, hosts, per_host)
        print(f"{hosts:>2} host(s) x {per_host:>2} links: {seconds:.2f} s, {succeeded} ok, "
              f"peak in flight at one server {peak}")


if __name__ == "__main__":
    main()
