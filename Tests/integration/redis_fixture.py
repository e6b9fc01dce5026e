"""A private Redis for the fleet tests: Debian's `redis-server` on a free
loopback port, in a temporary directory, with no persistence; stopped (and
restarted) by its pid. Tests never use a Redis started outside.

`RedisServer.command(...)` speaks just enough RESP over a socket for a test to
look at or damage what linkpeek wrote.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, directory: Path):
        self.binary = shutil.which("redis-server")
        self.directory = directory
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> "RedisServer":
        assert self.binary, "redis-server is not installed"
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
             "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", str(self.directory / "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}: "
                                   f"{(self.directory / 'redis.log').read_text(errors='replace')[-2000:]}")
            try:
                if self.command("PING") == "PONG":
                    return self
            except OSError:
                pass
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer PING on port {self.port} within {timeout}s")

    def kill(self) -> None:
        """Stops Redis at once (SIGKILL, by pid): what a crash looks like to its clients."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)

    # ------------------------------------------------------------ RESP
    def command(self, *args: str | bytes, timeout: float = 5.0):
        """Sends one command; returns its reply (bytes for bulk strings, str for status, int, list, None)."""
        parts = [a.encode() if isinstance(a, str) else a for a in args]
        payload = b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(payload)
            reader = s.makefile("rb")
            return _read_reply(reader)


@contextlib.contextmanager
def own_redis(tmp_path: Path, purpose: str):
    """A redis-server of the test's own under `tmp_path`, stopped after; a
    missing redis-server skips, and fails under CI. `purpose` ends the sentence."""
    if shutil.which("redis-server") is None:
        message = f"redis-server is not installed (make deps installs it): {purpose}"
        if os.environ.get("CI"):
            import pytest
            pytest.fail(message)
        import pytest
        pytest.skip(message)
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(directory).start()
    try:
        yield server
    finally:
        server.stop()


def _read_reply(reader):
    line = reader.readline()
    if not line:
        raise OSError("connection closed")
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        raise RuntimeError(rest.decode())
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        if n < 0:
            return None
        data = reader.read(n + 2)
        return data[:-2]
    if kind == b"*":
        n = int(rest)
        return None if n < 0 else [_read_reply(reader) for _ in range(n)]
    raise OSError(f"unexpected RESP line {line!r}")
