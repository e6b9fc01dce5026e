"""`linkpeek serve --http` under load, side by side with nginx, in one run.

    LINKPEEK_BIN=.build/release/linkpeek .venv/bin/python Benchmarks/bench_http.py
        [--seconds 10] [--rounds 2] [--pages 300] [--requests 1000000] [--parts cached,uncached,memory,fleet] [--pool]

Needs wrk, nginx and redis-server (apt-get install wrk nginx redis-server; bench only).
Every part is bounded in count and time; nothing is left running.

  cached    wrk -t2 -c64 on one cached /v1/preview, against nginx (2 workers)
            serving the same JSON body from a file, alternated for --rounds:
            requests/s and p99 of each, and the ratio (target: linkpeek >= 0.5x nginx);
            also each server's CPU per request (its /proc stat, nginx's workers
            included) and nginx's over linkpeek's (cpu_ratio).
            Both write their access log to a file. --pool adds the service with
            its tasks on Swift's cooperative pool instead of NIO's event loops.
  uncached  --pages generated pages (gen_pages.py, nginx with gzip): the CPU
            time per page of `serve --http` (its /proc stat, 16 clients) against
            `linkpeek fetch --stdin --concurrency 16` (its rusage), both with an
            empty cache and no subresources (target: <= 1.1x).
  memory    --requests cached requests (wrk, 64 connections) in chunks: RSS
            after the first chunk and at the end (target: flat within 5 MB).
  fleet     3 instances on one Redis behind nginx (upstream), 2,000 requests at
            once for 50 URLs of a slow origin (0.3 s): the origin's request
            count (target: exactly 50) and the statuses.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import http.server
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "integration"))
sys.path.insert(0, str(REPO / "Benchmarks"))

from fixture_server import FixtureServer  # noqa: E402
from http_service import HTTPService  # noqa: E402
from redis_fixture import RedisServer, free_port  # noqa: E402

NGINX_CONF = """worker_processes {workers};
daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 8192; }}
http {{
  access_log {root}/access.log;
  default_type application/json;
  keepalive_requests 1000000;
  {upstream}
  server {{ listen 127.0.0.1:{port}; root {root}/www; {location} }}
}}
"""


class Nginx:
    def __init__(self, root: Path, workers: int = 2, upstream: list[int] | None = None):
        self.root, self.port = root, free_port()
        block, location = "", ""
        if upstream:
            servers = " ".join(f"server 127.0.0.1:{p};" for p in upstream)
            block = f"upstream linkpeek {{ {servers} keepalive 256; }}"
            location = ("location / { proxy_pass http://linkpeek; proxy_http_version 1.1; "
                        "proxy_set_header Connection \"\"; proxy_read_timeout 60s; }")
        (root / "www").mkdir(parents=True, exist_ok=True)
        (root / "nginx.conf").write_text(NGINX_CONF.format(workers=workers, root=root, port=self.port,
                                                          upstream=block, location=location))
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.proc = subprocess.Popen([binary, "-c", str(root / "nginx.conf"), "-p", str(root)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("nginx did not start")
                time.sleep(0.05)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


def wrk(url: str, seconds: float, connections: int = 64) -> dict:
    done = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency", url],
                          capture_output=True, text=True, timeout=seconds + 60)
    out = done.stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not found:
        raise RuntimeError(f"wrk {url}: {out[-1000:]} {done.stderr[-1000:]}")
    rps = float(found.group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p99_ms": float(p99.group(1)) * scale, "requests": total,
            "non2xx": int(errors.group(1)) if errors else 0}


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU of a process and its children (nginx's master and workers)."""
    total = cpu_seconds(pid)
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        for child in children.read_text().split():
            try:
                total += cpu_seconds(int(child))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return total


def timed_wrk(url: str, seconds: float, pid: int) -> dict:
    """wrk, with the server's CPU per request (microseconds): a figure the machine's load moves far less
    than requests per second, since both servers share the cores with wrk and whatever else runs."""
    before = tree_cpu_seconds(pid)
    run = wrk(url, seconds)
    run["cpu_us"] = round((tree_cpu_seconds(pid) - before) * 1e6 / max(1, run["requests"]), 1)
    return run


def serve(binary: str, tmp: Path, name: str, *flags) -> HTTPService:
    """The access log goes to a file, as nginx's does (not through this script's pipe)."""
    cache = tmp / f"cache-{name}"
    cache.mkdir()
    return HTTPService(binary, ["--http", "127.0.0.1:0", "--allow-private-network", "--cache-dir", str(cache),
                                "--http-client-rate", "100000", "--log-file", str(tmp / f"{name}.log"),
                                *flags]).start()


def part_cached(binary: str, tmp: Path, args) -> dict:
    origin = FixtureServer().start()
    service = serve(binary, tmp, "cached")
    # --pool: also the same service with its tasks on Swift's cooperative pool rather than NIO's loops.
    pool = serve(binary, tmp, "cached-pool", "--http-on-pool") if args.pool else None
    nginx = None
    try:
        url = origin.url("/page")
        body = service.preview(url).body
        warm = service.preview(url)
        assert warm.status == 200 and warm.header("x-cache") == "hit", warm
        nginx = Nginx(tmp / "nginx-cached")
        (nginx.root / "www" / "preview.json").write_bytes(warm.body)
        target = f"{service.base}/v1/preview?{urllib.parse.urlencode({'url': url})}"
        addresses = {"nginx": f"http://127.0.0.1:{nginx.port}/preview.json", "linkpeek": target}
        pids = {"nginx": nginx.proc.pid, "linkpeek": service.proc.pid}
        if pool:
            assert pool.preview(url).status == 200 and pool.preview(url).header("x-cache") == "hit"
            addresses["linkpeek-pool"] = target.replace(service.base, pool.base)
            pids["linkpeek-pool"] = pool.proc.pid
        runs = {who: [] for who in addresses}
        for round_ in range(args.rounds):
            order = list(addresses) if round_ % 2 == 0 else list(reversed(addresses))
            for who in order:
                runs[who].append(timed_wrk(addresses[who], args.seconds, pids[who]))
        best = {who: max(r["rps"] for r in rs) for who, rs in runs.items()}
        p99 = {who: sorted(r["p99_ms"] for r in rs)[len(rs) // 2] for who, rs in runs.items()}
        cpu = {who: sorted(r["cpu_us"] for r in rs)[len(rs) // 2] for who, rs in runs.items()}
        return {"body_bytes": len(body), "runs": runs, "rps": best, "p99_ms": p99, "cpu_us_per_request": cpu,
                "ratio": round(best["linkpeek"] / best["nginx"], 3),
                "cpu_ratio": round(cpu["nginx"] / max(0.1, cpu["linkpeek"]), 3)}
    finally:
        service.kill()
        if pool:
            pool.kill()
        if nginx:
            nginx.stop()
        origin.stop()


def part_uncached(binary: str, tmp: Path, args) -> dict:
    import nginx_server
    from gen_pages import generate, shared_block

    pages = generate(args.pages)
    with nginx_server.nginx_serving(pages, shared_block(), gzip_html=True) as served:
        urls = [served.base_url + p.path for p in pages]
        # fetch --stdin: its own CPU (rusage of the child).
        cache = tmp / "cache-fetch"
        cache.mkdir()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([binary, "fetch", "--stdin", "--concurrency", "16", "--no-subresources",
                               "--allow-private-network", "--cache-dir", str(cache)],
                              input=("\n".join(urls) + "\n").encode(), capture_output=True, timeout=600)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        fetch_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        fetch_ok = sum(1 for line in done.stdout.splitlines() if line.strip() and b'"error"' not in line[:20])
        # serve --http: the process's CPU over the same pages, 16 clients with keep-alive.
        service = serve(binary, tmp, "uncached", "--no-http-access-log")
        try:
            start_cpu = cpu_seconds(service.proc.pid)
            statuses, lock, queue = [], threading.Lock(), list(urls)

            def client():
                connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=120)
                while True:
                    with lock:
                        if not queue:
                            break
                        url = queue.pop()
                    connection.request("GET", "/v1/preview?" + urllib.parse.urlencode(
                        {"url": url, "subresources": "false"}))
                    response = connection.getresponse()
                    response.read()
                    with lock:
                        statuses.append(response.status)
                connection.close()

            threads = [threading.Thread(target=client) for _ in range(16)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(600)
            http_cpu = cpu_seconds(service.proc.pid) - start_cpu
        finally:
            service.kill()
    per_page = lambda cpu: round(cpu / len(pages) * 1000, 3)  # noqa: E731
    return {"pages": len(pages), "fetch_ok": fetch_ok, "http_200": statuses.count(200),
            "fetch_cpu_ms_per_page": per_page(fetch_cpu), "http_cpu_ms_per_page": per_page(http_cpu),
            "ratio": round(http_cpu / fetch_cpu, 3)}


def part_memory(binary: str, tmp: Path, args) -> dict:
    origin = FixtureServer().start()
    service = serve(binary, tmp, "memory")
    try:
        url = origin.url("/page")
        service.preview(url)
        target = f"{service.base}/v1/preview?{urllib.parse.urlencode({'url': url})}"
        first = wrk(target, 5)
        baseline = rss_kb(service.proc.pid)
        total, non2xx, deadline = first["requests"], first["non2xx"], time.monotonic() + 900
        while total < args.requests and time.monotonic() < deadline:
            left = args.requests - total
            run = wrk(target, max(1, min(10, left / max(first["rps"], 1) + 1)))
            total += run["requests"]
            non2xx += run["non2xx"]
        end = rss_kb(service.proc.pid)
        return {"requests": total, "non2xx": non2xx, "rss_after_first_chunk_mb": round(baseline / 1024, 1),
                "rss_at_end_mb": round(end / 1024, 1), "delta_mb": round((end - baseline) / 1024, 2)}
    finally:
        service.kill()
        origin.stop()


class SlowOrigin:
    """/p/<n>: a page after 0.3 s; counts every request."""

    def __init__(self):
        self.count, self.lock = 0, threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                with outer.lock:
                    outer.count += 1
                time.sleep(0.3)
                body = f"<html><head><title>page {self.path}</title></head><body>x</body></html>".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "max-age=3600")
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/p/{i}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


async def burst(port: int, paths: list[str], timeout: float) -> list[int]:
    async def one(path):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        data = await reader.read()
        writer.close()
        return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0

    return await asyncio.wait_for(asyncio.gather(*(one(p) for p in paths)), timeout)


def part_fleet(binary: str, tmp: Path, args) -> dict:
    (tmp / "redis").mkdir()
    redis = RedisServer(tmp / "redis").start()
    origin = SlowOrigin()
    services, nginx = [], None
    try:
        for i in range(3):
            services.append(serve(binary, tmp, f"fleet{i}", "--fleet", redis.url, "--fleet-origin-rate", "10000",
                                  "--http-max-concurrent", "1024", "--http-max-queue", "4096",
                                  "--no-http-access-log"))
        nginx = Nginx(tmp / "nginx-fleet", upstream=[s.port for s in services])
        paths = ["/v1/preview?" + urllib.parse.urlencode({"url": origin.url(i % 50), "subresources": "false"})
                 for i in range(2000)]
        started = time.monotonic()
        statuses = asyncio.run(burst(nginx.port, paths, 120))
        return {"requests": len(paths), "seconds": round(time.monotonic() - started, 2),
                "statuses": {str(s): statuses.count(s) for s in sorted(set(statuses))},
                "origin_requests": origin.count}
    finally:
        for s in services:
            s.kill()
        if nginx:
            nginx.stop()
        origin.stop()
        redis.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--requests", type=int, default=1_000_000)
    ap.add_argument("--parts", default="cached,uncached,memory,fleet")
    ap.add_argument("--pool", action="store_true",
                    help="cached: also run the service with its tasks on the cooperative pool (--http-on-pool)")
    args = ap.parse_args()
    for tool in ("wrk", "nginx", "redis-server"):
        if not (shutil.which(tool) or Path(f"/usr/sbin/{tool}").exists()):
            print(f"cannot run this benchmark here: needs {tool} (apt-get install {tool})", file=sys.stderr)
            return 2
    binary = os.environ.get("LINKPEEK_BIN") or str(REPO / ".build" / "release" / "linkpeek")
    parts = {"cached": part_cached, "uncached": part_uncached, "memory": part_memory, "fleet": part_fleet}
    results = {}
    with tempfile.TemporaryDirectory(prefix="lpbench-http-") as tmp:
        Path(tmp).chmod(0o755)  # nginx's workers run as an unprivileged user
        for name in args.parts.split(","):
            work = Path(tmp) / name
            work.mkdir()
            work.chmod(0o755)
            results[name] = parts[name](binary, work, args)
            print(json.dumps({name: results[name]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
