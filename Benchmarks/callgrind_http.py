"""Instructions per cached `/v1/preview` request, counted by callgrind: a
figure that does not move with the machine's load (wrk's do).

    .venv/bin/python Benchmarks/callgrind_http.py --bin BASE --bin TRIAL [--requests 2000] [--connections 1] [--nginx] [--keep DIR]

Each binary runs `serve --http` under `valgrind --tool=callgrind`; one
client on one kept-alive connection (as wrk's are) warms the cache, sends
200 requests, zeroes the counters, sends `--requests` requests one after
another and dumps them: the instructions of the whole process (every
thread) divided by the requests. `--connections N` shares the requests
out over N kept-alive connections sending at once (valgrind runs the
server's threads one at a time, so this shows work per request that
depends on concurrency, not contention). `--nginx` counts nginx (one worker, no
master) serving a JSON file of the same size the same way. Needs valgrind,
cc (and nginx for `--nginx`).

Two things valgrind 3.19 needs here: the binary without its DWARF 5 debug
information (a stripped copy; symbols stay), and `sigsuspend` taking a
copy of its mask (libdispatch passes one in read-only memory, which
valgrind writes to): a small preloaded shim built on the fly.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "integration"))

from fixture_server import FixtureServer  # noqa: E402
from redis_fixture import free_port  # noqa: E402
from valgrind_ready import TOOLS, runnable_copy, shim_environment  # noqa: E402

WARM = 200
#: `--keep DIR`: where each counted dump is copied (for callgrind_annotate).
KEEP: Path | None = None


class Client:
    """One kept-alive connection; `one()` sends a request and reads its whole answer."""

    def __init__(self, port: int, target: str):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=120)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.request = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: */*\r\n\r\n".encode()
        self.buffer = b""

    def one(self) -> str:
        self.sock.sendall(self.request)
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                head = self.buffer[:end].decode("latin-1")
                length = re.search(r"(?i)content-length:\s*(\d+)", head)
                total = end + 4 + (int(length.group(1)) if length else 0)
                if len(self.buffer) >= total:
                    self.buffer = self.buffer[total:]
                    return head
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the server closed the connection")
            self.buffer += chunk


def counted(proc: subprocess.Popen, out: Path, clients: list[Client], requests: int) -> int:
    """The instructions of `requests` requests, shared out over `clients` sending at once."""
    for _ in range(WARM):
        clients[0].one()
    for client in clients[1:]:
        client.one()
    subprocess.run(["callgrind_control", "-z", str(proc.pid)], check=True, capture_output=True, timeout=120)
    shares = [requests // len(clients) + (1 if i < requests % len(clients) else 0) for i in range(len(clients))]
    threads = [threading.Thread(target=lambda c=c, n=n: [c.one() for _ in range(n)]) for c, n in zip(clients, shares)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    subprocess.run(["callgrind_control", "-d", str(proc.pid)], check=True, capture_output=True, timeout=120)
    dumps = sorted(out.parent.glob(out.name + ".*"))
    summary = re.search(r"^summary: (\d+)", dumps[-1].read_text(errors="replace"), re.M)
    if KEEP:
        KEEP.mkdir(parents=True, exist_ok=True)
        shutil.copy(dumps[-1], KEEP / f"callgrind.{proc.pid}.out")
    return int(summary.group(1))


def stop(proc: subprocess.Popen):
    proc.terminate()
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=60)


def linkpeek(binary: str, tmp: Path, environment: dict[str, str], requests: int, connections: int = 1) -> dict:
    stripped = runnable_copy(binary, str(tmp / "linkpeek"))
    (tmp / "cache").mkdir()
    out = tmp / "callgrind.out"
    origin = FixtureServer().start()
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(stripped), "serve", "--http",
         "127.0.0.1:0", "--allow-private-network", "--cache-dir", str(tmp / "cache"), "--http-client-rate", "100000",
         "--log-file", str(tmp / "access.log")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=environment)
    try:
        port = None
        deadline = time.monotonic() + 300
        assert proc.stderr
        for line in proc.stderr:
            found = re.search(rb"listening on http://.+:(\d+)", line)
            if found:
                port = int(found.group(1))
                break
            if time.monotonic() > deadline:
                break
        if port is None:
            raise RuntimeError("linkpeek did not start under valgrind")
        # valgrind keeps writing to stderr: drain it so that the process never blocks on the pipe.
        drain = proc.stderr
        threading.Thread(target=lambda: [None for _ in drain], daemon=True).start()
        target = "/v1/preview?" + urllib.parse.urlencode({"url": origin.url("/page")})
        clients = [Client(port, target) for _ in range(connections)]
        head = clients[0].one()
        head = clients[0].one()
        if "x-cache: hit" not in head.lower():
            raise RuntimeError(f"the second request was not a hit: {head}")
        instructions = counted(proc, out, clients, requests)
        return {"binary": binary, "requests": requests, "connections": connections, "instructions": instructions,
                "per_request": round(instructions / requests)}
    finally:
        stop(proc)
        origin.stop()


def nginx(tmp: Path, body_bytes: int, requests: int) -> dict:
    root = tmp / "nginx"
    (root / "www").mkdir(parents=True)
    (root / "www" / "preview.json").write_bytes(b'{"a":"' + b"x" * max(0, body_bytes - 8) + b'"}')
    port = free_port()
    (root / "nginx.conf").write_text(
        f"worker_processes 1;\nmaster_process off;\ndaemon off;\npid {root}/nginx.pid;\nerror_log {root}/error.log;\n"
        "events { worker_connections 1024; }\n"
        f"http {{ access_log {root}/access.log; default_type application/json; keepalive_requests 1000000;\n"
        f"  server {{ listen 127.0.0.1:{port}; root {root}/www; }} }}\n")
    out = root / "callgrind.out"
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "-c",
                             str(root / "nginx.conf"), "-p", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                client = Client(port, "/preview.json")
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("nginx did not start under valgrind")
                time.sleep(0.1)
        instructions = counted(proc, out, [client], requests)
        return {"binary": "nginx", "requests": requests, "instructions": instructions,
                "per_request": round(instructions / requests)}
    finally:
        stop(proc)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", action="append", required=True, help="a linkpeek binary (repeatable)")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--nginx", action="store_true", help="also count nginx serving a file of the same size")
    parser.add_argument("--body-bytes", type=int, default=952, help="the size of nginx's file")
    parser.add_argument("--connections", type=int, default=1,
                        help="kept-alive connections sending at once (linkpeek only; 1: one after another)")
    parser.add_argument("--keep", type=Path, help="copy each counted dump into this directory (callgrind_annotate)")
    args = parser.parse_args()
    global KEEP
    KEEP = args.keep
    for tool in TOOLS + ["callgrind_control"]:
        if not shutil.which(tool):
            sys.exit(f"cannot run this benchmark here: needs {tool}")
    with tempfile.TemporaryDirectory(prefix="callgrind-http-") as name:
        tmp = Path(name)
        environment = shim_environment(name)
        for index, binary in enumerate(args.bin):
            work = tmp / f"bin{index}"
            work.mkdir()
            print(json.dumps(linkpeek(binary, work, environment, args.requests, max(1, args.connections))), flush=True)
        if args.nginx:
            print(json.dumps(nginx(tmp, args.body_bytes, args.requests)), flush=True)


if __name__ == "__main__":
    main()
