"""The demo's sample site: a few pages written for linkpeek, served on 127.0.0.1.

    server = SampleServer().start()   # ephemeral port
    server.url("/article")
    server.stop()

Pages (samples/): /article (Open Graph article with an image), /video (a
directly playable video), /sjis (a page in Shift_JIS), /slow (answers after
`SLOW_SECONDS`). Images are generated PNGs; /media/kite.mp4 is a stub MP4
header (enough for a content type and a size).
"""

from __future__ import annotations

import http.server
import struct
import sys
import threading
import time
import zlib
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent / "samples"
SLOW_SECONDS = 1.2

PAGES = {
    "/article": ("article.html", "text/html; charset=utf-8"),
    "/video": ("video.html", "text/html; charset=utf-8"),
    "/sjis": ("sjis.html", "text/html; charset=Shift_JIS"),
    "/slow": ("slow.html", "text/html; charset=utf-8"),
}
IMAGES = {"/img/harbour.png": (600, 315, (40, 90, 140)), "/img/kite.png": (640, 360, (200, 40, 40)),
          "/img/icon.png": (32, 32, (230, 180, 40))}


def png(width: int, height: int, rgb: tuple) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = (b"\x00" + bytes(rgb) * width) * height
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def mp4_stub() -> bytes:
    """An `ftyp` box, then an empty `mdat`: a file that says it is MP4."""
    ftyp = b"isom" + struct.pack(">I", 512) + b"isomiso2avc1mp41"
    return struct.pack(">I", 8 + len(ftyp)) + b"ftyp" + ftyp + struct.pack(">I", 8) + b"mdat"


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, status: int, body: bytes, ctype: str):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=3600")
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in PAGES:
            name, ctype = PAGES[path]
            if path == "/slow" and self.server.stopping.wait(SLOW_SECONDS):  # type: ignore[attr-defined]
                return
            return self._send(200, (SAMPLES / name).read_bytes(), ctype)
        if path in IMAGES:
            return self._send(200, png(*IMAGES[path]), "image/png")
        if path == "/media/kite.mp4":
            return self._send(200, mp4_stub(), "video/mp4")
        self._send(404, b"<html><head><title>Not here</title></head></html>", "text/html; charset=utf-8")


class SampleServer:
    def __init__(self, port: int = 0):
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.stopping = threading.Event()  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="linkpeek-demo-site", daemon=True)

    def start(self) -> "SampleServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.stopping.set()  # type: ignore[attr-defined]
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{path}"


if __name__ == "__main__":  # serve the samples by hand: python3 sample_server.py [port]
    s = SampleServer(int(sys.argv[1]) if len(sys.argv) > 1 else 0).start()
    print(s.url("/"), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        s.stop()
