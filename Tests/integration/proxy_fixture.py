"""A small forward proxy on 127.0.0.1 that counts what it is asked: HTTP
absolute-form requests (`GET http://host:port/path`), `CONNECT host:port`
tunnels, and SOCKS5 connects (no authentication; names or IPv4).

    proxy = CountingProxy().start()
    ... linkpeek --proxy proxy.url ...
    proxy.seen        # [("GET", "http://127.0.0.1:8080/page"), ("CONNECT", "127.0.0.1:8443"), ("SOCKS5", "example.test:80")]
    proxy.stop()

It connects wherever it is told (it is the test's, on loopback); `resolve`
maps made-up names for it, as `--resolve` does for linkpeek. Every socket
has a timeout, so no thread outlives a test by more than a few seconds.
"""

from __future__ import annotations

import socket
import socketserver
import struct
import threading

TIMEOUT = 10.0


def _pipe(a: socket.socket, b: socket.socket) -> None:
    """Copies a → b until either side closes."""
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


class _Handler(socketserver.BaseRequestHandler):
    def handle(self):
        proxy: CountingProxy = self.server.proxy  # type: ignore[attr-defined]
        client: socket.socket = self.request
        client.settimeout(TIMEOUT)
        first = client.recv(1, socket.MSG_PEEK)
        if first == b"\x05":
            return self.socks5(proxy, client)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(65536)
            if not chunk:
                return
            head += chunk
        head, _, rest = head.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ", 2)
        proxy.record(method, target)
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            upstream = proxy.connect(host, int(port))
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            assert target.startswith("http://"), target
            hostport, _, path = target[len("http://"):].partition("/")
            host, _, port = hostport.rpartition(":") if ":" in hostport else (hostport, "", "80")
            upstream = proxy.connect(host, int(port))
            headers = [h for h in lines[1:] if not h.lower().startswith(("connection:", "proxy-connection:"))]
            request = "\r\n".join([f"{method} /{path} {version}", *headers, "Connection: close", "", ""])
            upstream.sendall(request.encode("latin-1") + rest)
        self.relay(client, upstream)

    def socks5(self, proxy: "CountingProxy", client: socket.socket):
        _, count = _recv_exact(client, 2)
        _recv_exact(client, count)
        client.sendall(b"\x05\x00")
        _, command, _, kind = _recv_exact(client, 4)
        if kind == 1:
            host = socket.inet_ntoa(_recv_exact(client, 4))
        elif kind == 3:
            host = _recv_exact(client, _recv_exact(client, 1)[0]).decode()
        else:
            client.sendall(b"\x05\x08\x00\x01" + bytes(6))
            return
        (port,) = struct.unpack("!H", _recv_exact(client, 2))
        proxy.record("SOCKS5", f"{host}:{port}")
        upstream = proxy.connect(host, port)
        client.sendall(b"\x05\x00\x00\x01" + bytes(6))
        self.relay(client, upstream)

    @staticmethod
    def relay(client: socket.socket, upstream: socket.socket):
        t = threading.Thread(target=_pipe, args=(upstream, client), daemon=True)
        t.start()
        _pipe(client, upstream)
        t.join(TIMEOUT)
        upstream.close()


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False


class CountingProxy:
    def __init__(self, resolve: dict[str, str] | None = None):
        self.resolve = resolve or {}
        self.seen: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> "CountingProxy":
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.proxy = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="counting-proxy", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()
        if self._thread:
            self._thread.join(timeout=5)

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    def url(self, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.port}"

    def record(self, method: str, target: str) -> None:
        with self._lock:
            self.seen.append((method, target))

    def connect(self, host: str, port: int) -> socket.socket:
        return socket.create_connection((self.resolve.get(host, host), port), timeout=TIMEOUT)
