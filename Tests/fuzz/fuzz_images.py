"""Fuzzes the image header probe (and whatever reads images): mutated PNG,
JPEG, GIF, WebP, ICO, BMP, AVIF and SVG headers, served by a loopback server
as the icon and the image of a page that the real daemon fetches.

Mutations: the generic byte mutators, and field-level ones: dimensions of 0,
2^31 and 2^32-1, ICO directories with 65,535 entries and absurd offsets,
ISO-BMFF boxes with huge sizes, SVG sizes of 1e400 and ratios that overflow.
A case fails when the daemon dies, its answer does not come within its bound,
or its output is not valid JSON.
"""

from __future__ import annotations

import json
import random
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import fuzzlib
from fuzz_frames import Daemon

ANSWER_SECONDS = 20.0


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00")) \
        + chunk(b"IEND", b"")


def gif(width: int, height: int) -> bytes:
    return b"GIF89a" + struct.pack("<HH", width, height) + b"\x80\x00\x00" + b"\x00" * 6 \
        + b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"


def jpeg(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def webp(width: int, height: int) -> bytes:
    vp8x = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00" + (width - 1).to_bytes(3, "little") \
        + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x


def ico(sizes: list[int]) -> bytes:
    images = [png(s, s) for s in sizes]
    offset = 6 + 16 * len(sizes)
    entries = b""
    for size, data in zip(sizes, images):
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return struct.pack("<HHH", 0, 1, len(sizes)) + entries + b"".join(images)


def bmp(width: int, height: int) -> bytes:
    return b"BM" + struct.pack("<IHHI", 54, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 0, 0, 0, 0)


def avif(width: int, height: int) -> bytes:
    def box(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", 8 + len(data)) + kind + data
    ispe = box(b"ispe", b"\x00\x00\x00\x00" + struct.pack(">II", width, height))
    meta = box(b"meta", b"\x00\x00\x00\x00" + box(b"hdlr", b"\x00" * 8 + b"pict" + b"\x00" * 13)
               + box(b"iprp", box(b"ipco", ispe)))
    return box(b"ftyp", b"avif\x00\x00\x00\x00mif1avif") + meta


def svg(attributes: str) -> bytes:
    return f'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" {attributes}><rect/></svg>'.encode()


def base_images() -> list[tuple[bytes, str]]:
    return [(png(16, 16), "image/png"), (gif(10, 20), "image/gif"), (jpeg(640, 480), "image/jpeg"),
            (webp(300, 200), "image/webp"), (ico([16, 32, 256]), "image/x-icon"), (bmp(8, -8), "image/bmp"),
            (avif(1920, 1080), "image/avif"), (svg('width="100" height="50"'), "image/svg+xml"),
            (svg('viewBox="0 0 40 20"'), "image/svg+xml")]


EXTREMES = [0, 1, 2 ** 15, 2 ** 16 - 1, 2 ** 24 - 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1]


def field_mutation(rng: random.Random) -> tuple[bytes, str]:
    kind = rng.randrange(8)
    w, h = rng.choice(EXTREMES), rng.choice(EXTREMES)
    if kind == 0:
        return png(w, h), "image/png"
    if kind == 1:
        return gif(w % 65536, h % 65536), "image/gif"
    if kind == 2:
        return jpeg(w % 65536, h % 65536), "image/jpeg"
    if kind == 3:
        return webp(max(1, w % (1 << 24)), max(1, h % (1 << 24))), "image/webp"
    if kind == 4:
        count = rng.choice([0, 1, 255, 65535])
        entries = b"".join(struct.pack("<BBBBHHII", rng.randrange(256), rng.randrange(256), 0, 0, 1, 32,
                                       rng.choice(EXTREMES), rng.choice(EXTREMES)) for _ in range(min(count, 300)))
        return struct.pack("<HHH", 0, 1, count) + entries, "image/x-icon"
    if kind == 5:
        data = bytearray(avif(w, h))
        if rng.random() < 0.5:
            data[0:4] = struct.pack(">I", rng.choice([0, 1, 7, 2 ** 32 - 1]))
        else:
            data += struct.pack(">I", 1) + b"mdat" + struct.pack(">Q", rng.choice([0, 2 ** 62, 2 ** 64 - 1]))
        return bytes(data), "image/avif"
    if kind == 6:
        value = rng.choice(["1e400", "-1", "0", "1e-400", "NaN", "inf", "9" * 400, "100%", "1e6px", "12in"])
        box = rng.choice(["0 0 1e-300 1e300", "0 0 0 0", "0 0 -1 5", "1 2 3", "0 0 1e7 1e-7", ""])
        return svg(f'width="{value}" height="{rng.choice(["5", value])}" viewBox="{box}"'), "image/svg+xml"
    return bmp(rng.choice(EXTREMES) - 2 ** 31, rng.choice(EXTREMES) - 2 ** 31), "image/bmp"


class Images:
    """A loopback server: /p/N is a page naming /i/N as image and icon; /i/N serves case N's bytes."""

    def __init__(self):
        self.cases: dict[str, tuple[bytes, str]] = {}
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                parts = self.path.split("/")
                key = parts[-1].split(".")[0]
                if self.path.startswith("/p/"):
                    body = (f'<html><head><title>case {key}</title><meta property="og:image" content="/i/{key}.png">'
                            f'<link rel="icon" href="/i/{key}.ico"></head></html>').encode()
                    kind = "text/html; charset=utf-8"
                else:
                    body, kind = outer.cases.get(key, (b"", "image/png"))
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def run(seconds: float, seed: int, max_cases: int | None = None) -> fuzzlib.Report:
    report = fuzzlib.Report("images", seed)
    rng = random.Random(seed)
    server = Images()
    daemon: Daemon | None = None
    bases = base_images()

    def check(index, data: bytes, kind: str) -> None:
        nonlocal daemon
        daemon = daemon or Daemon("ndjson")
        key = f"c{index}".replace(".", "_")
        server.cases[key] = (data, kind)
        include = "true" if rng.random() < 0.3 else "false"
        request = ('{"jsonrpc":"2.0","id":"%s","method":"fetch","params":{"url":"http://127.0.0.1:%d/p/%s",'
                   '"timeout":15,"includeData":%s,"cachePolicy":"reload"}}\n' % (key, server.port, key, include))
        daemon.send(request.encode())
        if daemon.wait_answer(key, ANSWER_SECONDS) and not daemon.bad_output:
            return
        reason = daemon.bad_output or ("the daemon died" if daemon.proc.poll() is not None else "no answer in time")
        code = daemon.close()
        if code is not None and code < 0:
            reason += f" (signal {-code}: {daemon.stderr[-300:]!r})"
        report.fail(index, reason, data, ".bin")
        daemon = None

    try:
        for path in fuzzlib.corpus("images"):
            kind = {".svg": "image/svg+xml", ".ico": "image/x-icon"}.get(path.suffix, "image/png")
            check(path.stem, path.read_bytes(), kind)
            report.corpus_cases += 1
        for index in fuzzlib.deadline_loop(seconds, max_cases):
            if rng.random() < 0.4:
                data, kind = field_mutation(rng)
            else:
                data, kind = rng.choice(bases)
                data = fuzzlib.mutate_bytes(rng, data, [b for b, _ in bases])
            if rng.random() < 0.2:
                kind = rng.choice(["image/png", "text/html", "application/octet-stream", "image/svg+xml"])
            check(index, data, kind)
            report.cases += 1
    finally:
        if daemon is not None:
            code = daemon.close()
            if code is None or code < 0:
                report.fail("end", f"bad exit {code} at end of input", b"", ".bin")
        server.stop()
    return report
