"""nginx serving the benchmark pages as static files, for a server whose own
cost does not dominate (the Python fixture server pays for a thread per
connection, which penalises a client that closes connections early).
Needs the `nginx` binary (apt-get install nginx); nothing is left behind.

With `gzip_html=True` (what bench_fetch.py asks for unless `--no-gzip`) it serves HTML gzip-encoded (but under /plain/) to
clients that accept it, as nearly every real server does: `gzip on`, with
each page also written compressed beside itself (`gzip_static on`, level 6)
so that nginx does not spend the shared machine's CPU compressing 300 MB
per run while the clients are being measured.

Its access log records, per request, nginx's connection serial number
(`$connection`) and the bytes it sent (`$bytes_sent`): the server's own count
of the connections a client opened and of what went over the wire, whatever
the client reports about itself.
"""

from __future__ import annotations

import contextlib
import gzip
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from concurrent.futures import ThreadPoolExecutor

from gen_pages import page_chunks

GZIP_CONF = """  gzip on;
  gzip_static on;
  gzip_comp_level 6;
  gzip_types text/html;
  gzip_vary on;
"""

CONF = """worker_processes 1;
daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 4096; }}
http {{
  log_format lpbench '$connection $bytes_sent';
  access_log {root}/access.log lpbench;
  default_type text/html;
  keepalive_requests 100000;
{gzip}  server {{ listen {host}:{port}; root {root}/www; location /plain/ {{ gzip off; gzip_static off; }} }}
}}
"""


def available() -> str | None:
    return None if shutil.which("nginx") or Path("/usr/sbin/nginx").exists() else "needs nginx (apt-get install nginx)"


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class AccessLog:
    """Reads the requests nginx logged since the last read."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0

    def take(self) -> list[tuple[int, int]]:
        """(connection serial, bytes sent) of each request logged since the last call."""
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return []
        # Only whole lines: nginx may be writing the last one.
        end = data.rfind(b"\n") + 1
        self.offset += end
        rows = []
        for line in data[:end].decode().splitlines():
            connection, sent = line.split()
            rows.append((int(connection), int(sent)))
        return rows


@dataclass
class Served:
    base_url: str
    log: AccessLog
    root: Path  # the files served: each page at its path, a gzip-encoded page with .gz beside it


@contextlib.contextmanager
def nginx_serving(pages, block: bytes, host: str = "127.0.0.1", gzip_html: bool = False):
    """Writes every page under a temporary root (and, with `gzip_html`, each
    page gzipped beside it), starts nginx on `host`, and yields a `Served`:
    the base URL (`http://host:port`) and its access log."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    with tempfile.TemporaryDirectory(prefix="lpbench-nginx-") as tmp:
        root = Path(tmp)
        root.chmod(0o755)  # nginx's workers run as an unprivileged user
        def write(page):
            path = root / "www" / page.path.lstrip("/")
            data = b"".join(page_chunks(page, block))
            path.write_bytes(data)
            if gzip_html and getattr(page, "gzip", True):
                # zlib lets go of the GIL while it compresses: both cores work.
                (path.parent / (path.name + ".gz")).write_bytes(gzip.compress(data, compresslevel=6, mtime=0))

        for page in pages:
            (root / "www" / page.path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(write, pages))
        port = _free_port(host)
        (root / "nginx.conf").write_text(CONF.format(root=root, host=host, port=port,
                                                     gzip=GZIP_CONF if gzip_html else ""))
        proc = subprocess.Popen([binary, "-c", str(root / "nginx.conf"), "-p", str(root)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection((host, port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise RuntimeError("nginx did not start")
                    time.sleep(0.05)
            yield Served(f"http://{host}:{port}", AccessLog(root / "access.log"), root / "www")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
