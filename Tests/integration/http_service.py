"""`linkpeek serve --http` for the tests and the benchmark: started on a port
it picks itself (`127.0.0.1:0`; the port comes from its "listening on" line),
asked with plain http.client, and stopped by its pid (SIGTERM, then SIGKILL
if it does not exit in time)."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

LISTENING = re.compile(rb"listening on http://(.+):(\d+)")


@dataclass
class Reply:
    status: int
    headers: dict
    body: bytes
    elapsed: float = 0.0

    @property
    def json(self):
        return json.loads(self.body)

    def header(self, name: str):
        return self.headers.get(name.lower())


@dataclass
class HTTPService:
    binary: str
    args: list
    env: dict | None = None
    proc: subprocess.Popen | None = None
    host: str = "127.0.0.1"
    port: int = 0
    stderr: bytearray = field(default_factory=bytearray)
    #: (path, reply) of every request, for the check against protocol/openapi.json.
    replies: list = field(default_factory=list)
    _reader: threading.Thread | None = None

    def start(self, timeout: float = 20.0) -> "HTTPService":
        self.proc = subprocess.Popen([self.binary, "serve", *self.args], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=self.env)
        found = threading.Event()

        def read():
            assert self.proc and self.proc.stderr
            for line in self.proc.stderr:
                self.stderr += line
                match = LISTENING.search(line)
                if match and not found.is_set():
                    self.port = int(match.group(2))
                    found.set()
            found.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        if not found.wait(timeout) or not self.port:
            self.kill()
            raise RuntimeError(f"linkpeek serve --http did not start: {bytes(self.stderr)[-2000:]!r}")
        return self

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def get(self, path: str, params: dict | None = None, headers: dict | None = None,
            timeout: float = 30.0) -> Reply:
        target = path + ("?" + urllib.parse.urlencode(params) if params else "")
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        started = time.monotonic()
        try:
            connection.request("GET", target, headers=headers or {})
            response = connection.getresponse()
            body = response.read()
            reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, body,
                          time.monotonic() - started)
            self.replies.append((path, reply))
            return reply
        finally:
            connection.close()

    def preview(self, url: str, **params) -> Reply:
        headers = params.pop("headers", None)
        return self.get("/v1/preview", {"url": url, **params}, headers=headers)

    def metrics(self) -> dict:
        """`/metrics` as {'name{labels}': value}."""
        text = self.get("/metrics").body.decode()
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, value = line.rsplit(" ", 1)
                values[name] = float(value)
        return values

    def terminate(self, timeout: float = 30.0) -> int:
        assert self.proc
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self):
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        if self._reader:
            self._reader.join(timeout=5)


def seconds_until_cut(sock: socket.socket, since: float, parts: list[bytes]) -> float:
    """Sends a request's header lines 0.4 s apart until the service cuts the
    connection; the seconds from `since` to the cut (an answer fails)."""
    for part in parts:
        time.sleep(0.4)
        try:
            sock.sendall(part)
        except OSError:
            return time.monotonic() - since
    sock.settimeout(5)
    try:
        data = sock.recv(100)
    except OSError:
        data = b""
    assert data == b"", data
    return time.monotonic() - since
