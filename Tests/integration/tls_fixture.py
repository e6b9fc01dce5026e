"""A test CA and HTTPS fixture servers for linkpeek's integration tests.

`TestCA(dir)` makes a CA key and certificate with the `openssl` command, and
`issue(names, days=…)` signs server certificates with it (negative days give
an expired one). `TLSFixtureServer(cert, key)` is the ordinary
`FixtureServer` (every route, hit counting) behind TLS on 127.0.0.1.
Nothing here touches the internet; the keys live in the test's tmp dir.
"""

from __future__ import annotations

import ssl
import subprocess
import threading
from pathlib import Path

from fixture_server import FixtureServer, Handler, _Server


def _openssl(*args: str, cwd: Path) -> None:
    res = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, timeout=30)
    if res.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(args)} failed: {res.stderr}")


class TestCA:
    __test__ = False  # not a pytest class

    def __init__(self, directory: Path, name: str = "linkpeek test CA"):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.key, self.cert = self.dir / "ca.key", self.dir / "ca.pem"
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", str(self.key), "-out", str(self.cert), "-days", "2", "-subj", f"/CN={name}",
                 cwd=self.dir)
        self._serial = 0

    def issue(self, names: list[str], days: int = 2) -> tuple[Path, Path]:
        """A server certificate for `names` (DNS names or IP addresses), signed by this CA: (cert, key)."""
        self._serial += 1
        stem = self.dir / f"leaf{self._serial}"
        key, csr, cert, ext = (stem.with_suffix(s) for s in (".key", ".csr", ".pem", ".ext"))
        sans = ",".join(f"IP:{n}" if n.replace(".", "").isdigit() else f"DNS:{n}" for n in names)
        ext.write_text(f"subjectAltName={sans}\nbasicConstraints=CA:FALSE\n")
        _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", str(key),
                 "-out", str(csr), "-subj", f"/CN={names[0]}", cwd=self.dir)
        _openssl("x509", "-req", "-in", str(csr), "-CA", str(self.cert), "-CAkey", str(self.key),
                 "-set_serial", str(1000 + self._serial), "-out", str(cert), "-days", str(days),
                 "-extfile", str(ext), cwd=self.dir)
        return cert, key

    def self_signed(self, name: str) -> tuple[Path, Path]:
        """A certificate for `name` signed by its own key (no CA): (cert, key)."""
        self._serial += 1
        stem = self.dir / f"self{self._serial}"
        cert, key = stem.with_suffix(".pem"), stem.with_suffix(".key")
        _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={name}",
                 "-addext", f"subjectAltName=DNS:{name}", cwd=self.dir)
        return cert, key


class _TLSServer(_Server):
    def handle_error(self, request, client_address):
        # A client that refuses the certificate ends the handshake: expected here, not news.
        import sys
        if not isinstance(sys.exc_info()[1], (ssl.SSLError, ConnectionError)):
            super().handle_error(request, client_address)


class TLSFixtureServer(FixtureServer):
    """The fixture server's routes over HTTPS (HTTP/1.1, ALPN http/1.1)."""

    def __init__(self, cert: Path, key: Path):
        super().__init__()
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(str(cert), str(key))
        self.context.set_alpn_protocols(["http/1.1"])

    def start(self) -> "TLSFixtureServer":
        self._httpd = _TLSServer((self.host, self._port), Handler)
        self._httpd.fixture = self
        # The handshake runs when the connection's thread first reads (not in accept),
        # so a client that rejects the certificate does not hold up the listener.
        self._httpd.socket = self.context.wrap_socket(self._httpd.socket, server_side=True,
                                                      do_handshake_on_connect=False)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                        name=f"tls-fixture-{self.port}", daemon=True)
        self._thread.start()
        return self

    def url(self, path: str = "/", host: str = "example.test") -> str:
        return f"https://{host}:{self.port}{path}"
