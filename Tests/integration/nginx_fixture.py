"""A real HTTP/2 server for the tests: nginx on 127.0.0.1 with `ssl http2` and
a certificate from the test's CA, serving files the test writes.

    with NginxServer(tmp, cert, key, files={"p1.html": b"..."}) as ng:
        ng.url("/p1.html")            # https://example.test:PORT/p1.html
        ng.log()                      # access log: [{"path", "protocol", "connection", "requests", "status", "bytes"}]

Started with `-g "daemon off;"` as a child the test owns; stopped by its pid.
Needs the `nginx` package (Makefile APT_PACKAGES); tests skip without it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

CONF = """
{user}
worker_processes 1;
error_log {dir}/error.log warn;
pid {dir}/nginx.pid;
events {{ worker_connections 256; }}
http {{
    access_log off;
    log_format counted '$request_uri $server_protocol $connection $connection_requests $status $bytes_sent';
    client_body_temp_path {dir}/tmp; proxy_temp_path {dir}/tmp; fastcgi_temp_path {dir}/tmp;
    uwsgi_temp_path {dir}/tmp; scgi_temp_path {dir}/tmp;
    types {{ text/html html; image/png png; }}
    server {{
        listen 127.0.0.1:{port} ssl http2;
        server_name example.test;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        access_log {dir}/access.log counted;
        keepalive_timeout 30s;
        location / {{ root {dir}/www; }}
    }}
}}
"""


def available() -> bool:
    return shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NginxServer:
    def __init__(self, directory: Path, cert: Path, key: Path, files: dict[str, bytes]):
        self.dir = Path(directory)
        (self.dir / "www").mkdir(parents=True, exist_ok=True)
        (self.dir / "tmp").mkdir(exist_ok=True)
        for name, body in files.items():
            (self.dir / "www" / name).write_bytes(body)
        self.cert, self.key = cert, key
        self.port = 0
        self.proc: subprocess.Popen | None = None

    def start(self) -> "NginxServer":
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        for _ in range(5):  # the free port may be taken between probe and bind: try another
            self.port = _free_port()
            conf = self.dir / "nginx.conf"
            # As root, nginx's worker would drop to nobody, who cannot read the test's private tmp dir.
            user = "user root;" if os.geteuid() == 0 else ""
            conf.write_text(CONF.format(user=user, dir=self.dir, port=self.port, cert=self.cert, key=self.key))
            self.proc = subprocess.Popen([binary, "-p", str(self.dir), "-c", str(conf), "-g", "daemon off;"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                    return self
                except OSError:
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError(f"nginx did not start: {(self.dir / 'error.log').read_text() if (self.dir / 'error.log').exists() else ''}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    def __enter__(self) -> "NginxServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def url(self, path: str) -> str:
        return f"https://example.test:{self.port}{path}"

    def log(self) -> list[dict]:
        """The access log so far (nginx writes a line when a request ends)."""
        path = self.dir / "access.log"
        if not path.exists():
            return []
        rows = []
        for line in path.read_text().splitlines():
            uri, protocol, connection, requests, status, sent = line.split(" ")
            rows.append({"path": uri, "protocol": protocol, "connection": int(connection),
                         "requests": int(requests), "status": int(status), "bytes": int(sent)})
        return rows
