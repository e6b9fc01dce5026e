"""A loopback HTTP server with crafted routes, for linkpeek's integration tests.

Start it, point linkpeek at ``server.url("/route")``, stop it::

    server = FixtureServer().start()      # 127.0.0.1, ephemeral port
    try:
        ...  server.hits("/page") ...
    finally:
        server.stop()

Every request is counted per path (``hits("/p")`` counts any query,
``hits("/p?x=1")`` that exact target). The server speaks HTTP/1.1 with
keep-alive, one daemon thread per connection. Long-running routes (drip,
never, slow, streamed bodies) end when the client goes away or the server
stops, so a test never leaves a thread spinning.

Routes (all GET):
  /page /twitter /html /jsonld     pages with Open Graph / Twitter / HTML / JSON-LD tags
  /redirect?status=S&to=URL        one redirect (to may be relative or absolute)
  /chain?n=N[&rel=1]               N hops (301,302,303,307,308 in turn) then /page
  /loop/a, /loop/b                 a redirect loop
  /redirect-file, /redirect-ftp    redirects to file:///etc/passwd and ftp://
  /drip                            one byte of HTML a second
  /never                           accepts the request, never answers
  /status/404, /status/500         error status with an HTML body
  /hugehead                        20 MB head without </head>, streamed
  /gzipbomb                        a small gzip body that expands to ~1 GiB
  /random /empty /notype           random bytes as text/html, empty body, no Content-Type
  /enc/<case>                      pages in legacy encodings (see ENCODING_CASES)
  /img/<name>.(png|jpg|gif)?w=&h=  generated images with known pixel sizes
  /favicon.ico                     a 16x16 ICO (PNG inside)
  /big3mb                          head with the main fields, then a 3 MB body
  /manytags?n=N&kind=meta|link     N tags before the main fields, then a 3 MB body
  /late-meta?at=N                  no main fields in the head, og:title N bytes into the body
  /base, /dir/sub/rel              relative og:image with <base href>, and without
  /slow?ms=M                       answers a page after M milliseconds
  /slow-image-page?ms=M            a page whose og:image and icon each answer after M milliseconds
                                   (/img/… takes ?ms=M too), or with ?hold=K once K is released
  /trickle?ms=M                    /page sent in three parts, M milliseconds apart
  /gate?key=K&n=N[&ms=M][&s=S]     held until N requests of key K are in flight at once (else its
                                   title is "gate timed out" after S s, default 20), then M ms more
  any route, ?key=K                counted in flight: ``peak_in_flight(K)`` is the most at once
  /held?key=K[&title=T][&s=S]      held until the test releases K (``release(K)`` or /release?key=K),
                                   then a page; unreleased after S s (default 60), its title says so.
                                   ``wait_in_flight(K, n)`` (or /in-flight?key=K&n=N, which answers
                                   the count once it is reached) tells a test the request is there
  /pdf /json                       non-HTML types
  /gzip /br                        a page sent Content-Encoding gzip / br (br only with an encoder)
  /accept-encoding                 a page whose title is the request's Accept-Encoding
  /coded?c=C[&damage=1]            a page in coding C: gzip, gzip-members, zlib, raw (deflate), or
                                   unencoded bytes labelled C (br, zstd…); damage flips stream bytes
  /ua                              a page whose title is the request's User-Agent
  /lang                            a page whose title is the request's Accept-Language (no Vary)
  /cacheable?id=ID                 a page whose ETag, Last-Modified, Cache-Control, title and delay
                                   a test sets with ``set_cacheable(ID, ...)``; answers 304 to a
                                   matching If-None-Match / If-Modified-Since (counted per path:
                                   ``conditional_hits``, ``not_modified_hits``)
"""

from __future__ import annotations

import gzip
import http.server
import random
import select
import shutil
import socket
import struct
import subprocess
import threading
import time
import urllib.parse
import zlib
from collections import Counter
from typing import Callable

# ---------------------------------------------------------------- images


def png_bytes(width: int, height: int, rgb=(200, 30, 30)) -> bytes:
    """A valid truecolour PNG of width x height, one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def gif_bytes(width: int, height: int) -> bytes:
    """A valid GIF89a of width x height, every pixel colour 0.

    LZW with minimum code size 2: a clear code before every two pixels keeps
    the code table from growing, so every code is 3 bits wide.
    """
    clear, end = 4, 5
    codes = []
    pixels = width * height
    for i in range(pixels):
        if i % 2 == 0:
            codes.append(clear)
        codes.append(0)
    codes.append(end)
    bits, nbits, out = 0, 0, bytearray()
    for c in codes:
        bits |= c << nbits
        nbits += 3
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray()
    for i in range(0, len(out), 255):
        part = out[i:i + 255]
        blocks += bytes([len(part)]) + part
    blocks += b"\x00"
    palette = b"\x00\x00\x00\xff\xff\xff\x00\x00\x00\x00\x00\x00"  # 4 colours
    return (b"GIF89a" + struct.pack("<HHBBB", width, height, 0x81, 0, 0) + palette
            + b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
            + b"\x02" + bytes(blocks) + b"\x3b")


def jpeg_bytes(width: int, height: int) -> bytes:
    """A valid baseline greyscale JPEG of width x height, mid grey.

    One-symbol Huffman tables (DC category 0, AC end-of-block), so each 8x8
    block is the two bits "00".
    """
    def seg(marker: int, data: bytes) -> bytes:
        return struct.pack(">BBH", 0xFF, marker, len(data) + 2) + data

    app0 = seg(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    dqt = seg(0xDB, b"\x00" + bytes([1] * 64))
    sof = seg(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00")
    dht_dc = seg(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00")
    dht_ac = seg(0xC4, b"\x10" + bytes([1] + [0] * 15) + b"\x00")
    sos = seg(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    blocks = ((width + 7) // 8) * ((height + 7) // 8)
    nbits = blocks * 2
    data = bytearray(b"\x00" * (nbits // 8))
    rem = nbits % 8
    if rem:
        data.append((0xFF >> rem) & 0xFF)  # remaining bits of the last byte padded with 1s
    return b"\xff\xd8" + app0 + dqt + sof + dht_dc + dht_ac + sos + bytes(data) + b"\xff\xd9"


def ico_bytes(size: int = 16) -> bytes:
    """An ICO holding one PNG image of size x size."""
    png = png_bytes(size, size, (30, 30, 200))
    entry = struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), 6 + 16)
    return struct.pack("<HHH", 0, 1, 1) + entry + png


IMAGE_MAKERS = {"png": (png_bytes, "image/png"), "gif": (gif_bytes, "image/gif"),
                "jpg": (jpeg_bytes, "image/jpeg")}

# ---------------------------------------------------------------- encodings

# case -> (codec, title text, http charset or None, meta tag or None, bom or b"")
ENCODING_CASES: dict[str, tuple[str, str, str | None, str | None, bytes]] = {
    "sjis-http": ("shift_jis", "日本語のページタイトル", "Shift_JIS", None, b""),
    "sjis-meta": ("shift_jis", "日本語のページタイトル", None, '<meta charset="shift_jis">', b""),
    "sjis-http-beats-meta": ("shift_jis", "日本語のページタイトル", "shift_jis",
                             '<meta charset="utf-8">', b""),
    "gbk-http": ("gbk", "中文网页标题：欢迎光临", "GBK", None, b""),
    "gbk-meta-gb2312": ("gbk", "中文网页标题：欢迎光临", None, '<meta charset="gb2312">', b""),
    "cp1251-http": ("cp1251", "Заголовок страницы — Новости", "windows-1251", None, b""),
    "cp1251-http-equiv": ("cp1251", "Заголовок страницы — Новости", None,
                          '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">', b""),
    "cp1252-http": ("cp1252", "Café crème — “quoted” €5 ½", "windows-1252", None, b""),
    "cp1252-meta-latin1": ("cp1252", "Café crème — “quoted” €5 ½", None,
                           '<meta charset="iso-8859-1">', b""),
    "cp1252-unlabelled": ("cp1252", "Café crème — “quoted” €5 ½", None, None, b""),
    "utf16le-bom": ("utf-16-le", "Ünïcödé — 日本語 UTF-16", None, None, b"\xff\xfe"),
    "utf16be-bom": ("utf-16-be", "Ünïcödé — 日本語 UTF-16", None, None, b"\xfe\xff"),
    "utf16le-http": ("utf-16-le", "Ünïcödé — 日本語 UTF-16", "utf-16le", None, b""),
    "utf8-bom-beats-http": ("utf-8", "Ünïcödé — 日本語 BOM", "windows-1252", None, b"\xef\xbb\xbf"),
    "utf8-unlabelled": ("utf-8", "Ünïcödé — 日本語 plain", None, None, b""),
}


def encoding_page(case: str) -> tuple[bytes, str]:
    codec, title, http_cs, meta, bom = ENCODING_CASES[case]
    desc = title + " / description"
    html = ("<!DOCTYPE html><html><head>" + (meta or "")
            + f"<title>{title}</title><meta name=\"description\" content=\"{desc}\">"
            + "</head><body><p>" + title + "</p></body></html>")
    ctype = "text/html" + (f"; charset={http_cs}" if http_cs else "")
    return bom + html.encode(codec), ctype


# ---------------------------------------------------------------- pages


def page_html(base: str, title: str = "Fixture Page", extra: str = "") -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head>
<meta charset="utf-8">
<title>HTML title (loses to og)</title>
<meta property="og:title" content="{title}">
<meta property="og:description" content="An Open Graph description.">
<meta property="og:site_name" content="Fixture Site">
<meta property="og:type" content="article">
<meta property="og:image" content="{base}/img/og.png?w=120&amp;h=63">
<meta property="og:image:width" content="120">
<meta property="og:image:height" content="63">
<meta name="twitter:title" content="Twitter title (loses to og)">
<meta name="description" content="HTML description (loses to og)">
<link rel="icon" href="/img/icon.gif?w=32&amp;h=32">
<link rel="canonical" href="{base}/canonical">
{extra}
</head><body><h1>Hello</h1></body></html>"""


TWITTER_PAGE = """<!DOCTYPE html><html><head>
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="Twitter Card Title">
<meta name="twitter:description" content="A Twitter description.">
<meta name="twitter:image" content="/img/tw.jpg?w=64&amp;h=48">
</head><body>x</body></html>"""

HTML_PAGE = """<!DOCTYPE html><html><head>
<TITLE>  Plain &amp; Simple   Title </TITLE>
<META NAME=description CONTENT="Plain description.">
</head><body><svg><title>not the title</title></svg></body></html>"""

JSONLD_PAGE = """<!DOCTYPE html><html><head>
<script type="application/ld+json">{ broken json </script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
"headline":"JSON-LD Headline","description":"JSON-LD description.",
"author":{"@type":"Person","name":"Ada Lovelace"},"datePublished":"2024-05-06T07:08:09Z"}</script>
</head><body>x</body></html>"""

FILLER = ("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
          "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam.</p>\n") * 64
FILLER_BYTES = FILLER.encode()


def repeated(block: bytes, count: int):
    """`count` bytes of `block` repeated, in pieces of at most len(block)."""
    sent = 0
    while sent < count:
        piece = block[: count - sent]
        sent += len(piece)
        yield piece

BIG3MB_HEAD = b"""<!DOCTYPE html><html><head><meta charset="utf-8">
<title>Big Page</title>
<meta name="description" content="A page with a 3 MB body.">
<meta property="og:image" content="/img/big.png?w=40&amp;h=20">
</head>"""

LATE_HEAD = b"""<!DOCTYPE html><html><head><meta charset="utf-8">
<meta name="generator" content="fixture">
</head>"""


def _gzip_bomb() -> bytes:
    """gzip of an HTML start plus 1 GiB of spaces: about 1 MB on the wire. Each 1 MiB block is compressed
    once and repeated: after a full flush deflate starts afresh, so every block's bytes are the same (a
    minute of level-9 compression under load, before); the trailer's CRC and length are of the whole."""
    head = b"<!DOCTYPE html><html><head><title>bomb</title>"
    block = b" " * (1 << 20)
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    parts = [co.compress(head) + co.flush(zlib.Z_FULL_FLUSH)]
    one = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
    parts += [one] * 1024
    parts.append(co.flush())
    crc = zlib.crc32(head)
    for _ in range(1024):
        crc = zlib.crc32(block, crc)
    size = len(head) + 1024 * len(block)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # gzip, deflate, no name, no time, level 9
    return header + b"".join(parts) + struct.pack("<II", crc, size & 0xFFFFFFFF)


def _brotli(data: bytes) -> bytes | None:
    try:
        import brotli  # type: ignore
        return brotli.compress(data)
    except ImportError:
        pass
    exe = shutil.which("brotli")
    if exe:
        return subprocess.run([exe, "-c"], input=data, capture_output=True, timeout=30, check=True).stdout
    return None


class _Lazy:
    def __init__(self, make):
        self._make, self._lock, self._done, self._value = make, threading.Lock(), False, None

    def get(self):
        with self._lock:
            if not self._done:
                self._value, self._done = self._make(), True
            return self._value


GZIP_BOMB = _Lazy(_gzip_bomb)
BROTLI_PAGE = _Lazy(lambda: _brotli(page_html("", "Brotli Page").encode()))


def brotli_available() -> bool:
    return BROTLI_PAGE.get() is not None


# ---------------------------------------------------------------- server


class ClientGone(Exception):
    pass


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "_Server"

    def log_message(self, *args):  # quiet
        pass

    # -- helpers
    @property
    def fixture(self) -> "FixtureServer":
        return self.server.fixture

    @property
    def base(self) -> str:
        return self.fixture.base_url

    def send(self, status: int, body: bytes, ctype: str | None = "text/html; charset=utf-8",
             headers: dict[str, str] | None = None):
        self.send_response(status)
        if ctype is not None:
            self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def redirect(self, status: int, location: str):
        self.send(status, b"", None, {"Location": location})

    def stream(self, chunks, total: int, ctype: str = "text/html; charset=utf-8",
               headers: dict[str, str] | None = None, delay: float = 0.0):
        """Send a body of `total` bytes from an iterator of chunks; stop when the client leaves."""
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(total))
        self.end_headers()
        self.close_connection = True
        try:
            for c in chunks:
                if self.fixture.stopping.is_set():
                    return
                self.wfile.write(c)
                self.wfile.flush()
                if delay and self.fixture.stopping.wait(delay):
                    return
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def check_client(self):
        """Raises ClientGone if the peer has closed its end."""
        r, _, _ = select.select([self.connection], [], [], 0)
        if r:
            try:
                if self.connection.recv(1, socket.MSG_PEEK) == b"":
                    raise ClientGone
            except (ConnectionResetError, OSError):
                raise ClientGone

    def wait_or_client_gone(self, seconds: float):
        """Sleep up to `seconds`; return early (raise ClientGone) if the peer closes."""
        deadline = time.monotonic() + seconds
        sock = self.connection
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or self.fixture.stopping.is_set():
                return
            r, _, _ = select.select([sock], [], [], min(left, 0.1))
            if r:
                try:
                    if sock.recv(1, socket.MSG_PEEK) == b"":
                        raise ClientGone
                except (ConnectionResetError, OSError):
                    raise ClientGone
                # pipelined bytes: keep waiting without consuming them
                if self.fixture.stopping.wait(min(left, 0.05)):
                    return

    def handle(self):
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError, TimeoutError):
            pass  # the client went away (linkpeek aborts transfers on purpose)

    # -- dispatch
    def do_GET(self):
        parsed = urllib.parse.urlsplit(self.path)
        path, query = parsed.path, urllib.parse.parse_qs(parsed.query)
        self.fixture._count(path, self.path, dict(self.headers))
        q = lambda k, d=None: query.get(k, [d])[0]  # noqa: E731
        key = q("key")
        if key is not None:
            self.fixture._enter(key)
        try:
            route = self.fixture.routes.get(path)
            if route is None:
                for prefix, fn in self.fixture.prefix_routes:
                    if path.startswith(prefix):
                        route = fn
                        break
            if route is None:
                self.send(404, b"<html><head><title>Not Found</title></head><body>404</body></html>")
                return
            route(self, path, q)
        except ClientGone:
            self.close_connection = True
        finally:
            if key is not None:
                self.fixture._leave(key)


def _route_table() -> tuple[dict[str, Callable], list[tuple[str, Callable]]]:
    R: dict[str, Callable] = {}
    P: list[tuple[str, Callable]] = []

    def route(path):
        def deco(fn):
            R[path] = fn
            return fn
        return deco

    def prefix(p):
        def deco(fn):
            P.append((p, fn))
            return fn
        return deco

    @route("/")
    @route("/page")
    @route("/canonical")
    def _page(h: Handler, path, q):
        h.send(200, page_html(h.base, q("title", "Fixture Page")).encode())

    @route("/slow-image-page")
    def _slow_image_page(h, path, q):
        wait = f"hold={urllib.parse.quote(q('hold'))}" if q("hold") else f"ms={int(q('ms', '1500'))}"
        h.send(200, f"""<html><head><title>Slow image</title>
<meta property="og:image" content="/img/slow.png?{wait}&amp;w=40&amp;h=20">
<link rel="icon" href="/img/slowicon.gif?{wait}&amp;w=16&amp;h=16"></head><body>x</body></html>""".encode())

    @route("/twitter")
    def _tw(h, path, q):
        h.send(200, TWITTER_PAGE.encode())

    @route("/html")
    def _html(h, path, q):
        h.send(200, HTML_PAGE.encode())

    @route("/jsonld")
    def _jsonld(h, path, q):
        h.send(200, JSONLD_PAGE.encode())

    @route("/noicon")
    def _noicon(h, path, q):
        h.send(200, b"<html><head><title>No icon declared</title></head><body>x</body></html>")

    @route("/redirect")
    def _redirect(h, path, q):
        h.redirect(int(q("status", "302")), q("to", "/page"))

    @route("/chain")
    def _chain(h, path, q):
        n = int(q("n", "0"))
        if n <= 0:
            return _page(h, path, q)
        status = (301, 302, 303, 307, 308)[n % 5]
        rel = bool(q("rel"))
        target = f"chain?n={n - 1}" + ("&rel=1" if rel else "")
        if rel:
            loc = target                      # document-relative
        elif n % 2:
            loc = "/" + target                # path-relative
        else:
            loc = h.base + "/" + target       # absolute
        h.redirect(status, loc)

    @route("/loop/a")
    def _loop_a(h, path, q):
        h.redirect(302, "/loop/b")

    @route("/loop/b")
    def _loop_b(h, path, q):
        h.redirect(302, h.base + "/loop/a")

    @route("/redirect-file")
    def _rfile(h, path, q):
        h.redirect(302, "file:///etc/passwd")

    @route("/redirect-ftp")
    def _rftp(h, path, q):
        h.redirect(302, f"ftp://127.0.0.1:{h.fixture.port}/x")

    @route("/redirect-javascript")
    def _rjs(h, path, q):
        h.redirect(302, "javascript:alert(1)")

    @route("/drip")
    def _drip(h, path, q):
        body = b"<!DOCTYPE html><html><head><title>Drip</title>" + b" " * 200
        h.stream((body[i:i + 1] for i in range(len(body))), len(body), delay=1.0)

    @route("/never")
    def _never(h, path, q):
        h.wait_or_client_gone(float(q("s", "120")))
        h.close_connection = True

    @route("/slow")
    def _slow(h, path, q):
        h.wait_or_client_gone(int(q("ms", "3000")) / 1000.0)
        h.send(200, page_html(h.base, q("title", "Slow Page")).encode())

    @route("/gate")
    def _gate(h, path, q):
        # Holds every request of `key` until `n` of them are in flight at once (or `s` seconds, default 20,
        # have passed: then the title says so and the test that expected overlap fails by its title), then
        # answers after `ms` more milliseconds.
        opened = h.fixture.wait_in_flight(q("key", ""), int(q("n", "1")), float(q("s", "20")))
        h.wait_or_client_gone(int(q("ms", "0")) / 1000.0)
        h.send(200, page_html(h.base, q("title", "Gate") if opened else "gate timed out").encode())

    @route("/held")
    def _held(h, path, q):
        released = h.fixture.wait_released(h, q("key", ""), float(q("s", "60")))
        h.send(200, page_html(h.base, q("title", "Held") if released else "held never released").encode())

    @route("/release")
    def _release(h, path, q):
        h.fixture.release(q("key", ""))
        h.send(200, b"released", "text/plain")

    @route("/in-flight")
    def _in_flight(h, path, q):
        # For a test in another process (an editor's): answers once N requests of K are in flight.
        reached = h.fixture.wait_in_flight(q("key", ""), int(q("n", "1")), float(q("s", "20")))
        h.send(200 if reached else 504, str(h.fixture.peak_in_flight(q("key", ""))).encode(), "text/plain")

    @route("/trickle")
    def _trickle(h, path, q):
        body = page_html(h.base, q("title", "Trickle Page")).encode()
        cut = body.index(b"<meta property=\"og:image\"")
        parts = [body[:cut // 2], body[cut // 2:cut], body[cut:]]
        h.stream(iter(parts), len(body), delay=int(q("ms", "200")) / 1000.0)

    @prefix("/status/")
    def _status(h, path, q):
        code = int(path.rsplit("/", 1)[1])
        h.send(code, f"<html><head><title>Error {code}</title><meta property=\"og:title\" "
                     f"content=\"Error page {code}\"></head><body>{code}</body></html>".encode())

    @route("/hugehead")
    def _hugehead(h, path, q):
        total = 20 * 1024 * 1024
        start = b"<!DOCTYPE html><html><head><title>Endless Head</title>\n"
        unit = b'<meta name="filler" content="' + b"x" * 200 + b'">\n'
        chunk = unit * (65536 // len(unit))

        def gen():
            yield start
            yield from repeated(chunk, total - len(start))
        h.stream(gen(), total)

    @route("/gzipbomb")
    def _bomb(h, path, q):
        blob = GZIP_BOMB.get()
        h.stream((blob[i:i + 65536] for i in range(0, len(blob), 65536)), len(blob),
                 headers={"Content-Encoding": "gzip"})

    @route("/random")
    def _random(h, path, q):
        h.send(200, random.Random(1234).randbytes(65536), "text/html")

    @route("/empty")
    def _empty(h, path, q):
        h.send(200, b"", "text/html")

    @route("/notype")
    def _notype(h, path, q):
        h.send(200, b"<!DOCTYPE html><html><head><title>No Content-Type</title></head>"
                    b"<body>x</body></html>", None)

    @prefix("/enc/")
    def _enc(h, path, q):
        body, ctype = encoding_page(path[len("/enc/"):])
        h.send(200, body, ctype)

    @prefix("/img/")
    def _img(h, path, q):
        ext = path.rsplit(".", 1)[-1]
        maker, ctype = IMAGE_MAKERS.get(ext, (None, None))
        if maker is None:
            return h.send(404, b"no such image")
        if q("ms", None):
            h.wait_or_client_gone(int(q("ms", "0")) / 1000.0)
        if q("hold", None) and not h.fixture.wait_released(h, q("hold"), float(q("s", "60"))):
            return h.send(504, b"held never released")
        h.send(200, maker(int(q("w", "64")), int(q("h", "32"))), ctype)

    @route("/favicon.ico")
    def _ico(h, path, q):
        h.send(200, ico_bytes(16), "image/x-icon")

    @route("/big3mb")
    def _big(h, path, q):
        body_len = 3 * 1024 * 1024

        def gen():
            yield BIG3MB_HEAD
            yield from repeated(FILLER_BYTES, body_len)
        h.stream(gen(), len(BIG3MB_HEAD) + body_len)

    @route("/manytags")
    def _manytags(h, path, q):
        """n <meta> (or <link>) tags, then title/description/og:image, </head>, then a 3 MB body."""
        n, kind = int(q("n", "60")), q("kind", "meta")
        unit = ('<meta name="x" content="' + "a" * 90 + '">\n' if kind == "meta"
                else '<link rel="preload" href="/static/abc.js" as="script">\n')
        head = ('<!DOCTYPE html><html><head><meta charset="utf-8">\n' + unit * n
                + '<title>Many Tags</title>\n<meta name="description" content="D">\n'
                + '<meta property="og:image" content="/img/m.png">\n</head>\n').encode()
        body_len = 3 * 1024 * 1024

        def gen():
            yield head
            yield from repeated(FILLER_BYTES, body_len)
        h.stream(gen(), len(head) + body_len, headers={"X-Head-Length": str(len(head))})

    @route("/late-meta")
    def _late(h, path, q):
        at = int(q("at", "20000"))
        body_len = int(q("len", str(3 * 1024 * 1024)))
        tag = b'<meta property="og:title" content="Late Title">'
        pre = b"<body>" + (FILLER_BYTES * (at // len(FILLER_BYTES) + 1))[: max(0, at - 6)]
        rest_len = body_len - len(pre) - len(tag)

        def gen():
            yield LATE_HEAD
            yield pre
            yield tag
            yield from repeated(FILLER_BYTES, rest_len)
        h.stream(gen(), len(LATE_HEAD) + len(pre) + len(tag) + rest_len)

    @route("/base")
    def _base(h, path, q):
        h.send(200, f"""<html><head><base href="{h.base}/assets/">
<title>Base page</title><meta property="og:image" content="img/pic.png?w=10&amp;h=5">
<link rel="icon" href="//127.0.0.1:{h.fixture.port}/img/pr.gif?w=16&amp;h=16">
</head><body>x</body></html>""".encode())

    @prefix("/assets/img/")
    def _assets(h, path, q):
        return _img(h, path, q)

    @route("/dir/sub/rel")
    def _rel(h, path, q):
        h.send(200, b"""<html><head><title>Relative</title>
<meta property="og:image" content="../pic.png?w=8&amp;h=4"></head><body>x</body></html>""")

    @route("/dir/pic.png")
    def _dirpic(h, path, q):
        h.send(200, png_bytes(8, 4), "image/png")

    @route("/pdf")
    def _pdf(h, path, q):
        h.send(200, b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", "application/pdf")

    @route("/json")
    def _json(h, path, q):
        h.send(200, b'{"title": "not html"}', "application/json")

    @route("/gzip")
    def _gzip(h, path, q):
        h.send(200, gzip.compress(page_html(h.base, "Gzip Page").encode()),
               headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})

    @route("/br")
    def _br(h, path, q):
        data = BROTLI_PAGE.get()
        if data is None:
            return h.send(404, b"no brotli encoder here")
        h.send(200, data, headers={"Content-Encoding": "br"})

    @route("/accept-encoding")
    def _accept_encoding(h, path, q):
        sent = h.headers.get("Accept-Encoding", "none")
        h.send(200, f"<html><head><title>{sent}</title></head><body>x</body></html>".encode())

    @route("/coded")
    def _coded(h, path, q):
        # A page in the coding named by ?c= (gzip members, zlib or raw deflate), or bytes labelled
        # with a coding linkpeek does not ask for; ?damage=1 flips bytes in the middle of the stream.
        html = page_html(h.base, "Coded Page").encode()
        coding = q("c", "gzip")
        if coding == "gzip-members":
            data, label = gzip.compress(html[:200]) + gzip.compress(html[200:]), "gzip"
        elif coding == "zlib":
            data, label = zlib.compress(html), "deflate"
        elif coding == "raw":
            data, label = zlib.compress(html)[2:-4], "deflate"
        elif coding == "gzip":
            data, label = gzip.compress(html), "gzip, identity"
        else:
            data, label = html, coding
        if q("damage"):
            data = data[:20] + bytes(b ^ 0x55 for b in data[20:60]) + data[60:]
        h.send(200, data, headers={"Content-Encoding": label})

    @route("/lang")
    def _lang(h, path, q):
        import html as _h
        lang = _h.escape(h.headers.get("Accept-Language", "none"))
        h.send(200, f"<html><head><title>lang {lang}</title></head><body>x</body></html>".encode())

    @route("/cacheable")
    def _cacheable(h, path, q):
        state = h.fixture.cacheable_state(q("id", ""))
        if state.get("delay_ms"):
            h.wait_or_client_gone(state["delay_ms"] / 1000)
        headers = {}
        if state.get("etag"):
            headers["ETag"] = state["etag"]
        if state.get("last_modified"):
            headers["Last-Modified"] = state["last_modified"]
        if state.get("cache_control"):
            headers["Cache-Control"] = state["cache_control"]
        inm, ims = h.headers.get("If-None-Match"), h.headers.get("If-Modified-Since")
        if inm is not None or ims is not None:
            h.fixture._count_conditional(path)
        fresh_etag = inm is not None and state.get("etag") and inm == state["etag"]
        fresh_date = inm is None and ims is not None and ims == state.get("last_modified")
        if fresh_etag or fresh_date:
            h.fixture._count_not_modified(path)
            h.send_response(304)
            for k, v in headers.items():
                h.send_header(k, v)
            h.end_headers()
            return
        title = state.get("title", "Cacheable")
        h.send(200, f"<html><head><title>{title}</title><meta name=description content=d></head>"
                    f"<body>x</body></html>".encode(), headers=headers)

    @route("/ua")
    def _ua(h, path, q):
        import html as _h
        ua = _h.escape(h.headers.get("User-Agent", ""))
        h.send(200, f"<html><head><title>{ua}</title></head><body>x</body></html>".encode())

    return R, P


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 1024
    fixture: "FixtureServer"


class FixtureServer:
    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        self.host, self._port = host, port
        self.routes, self.prefix_routes = _route_table()
        self._hits: Counter[str] = Counter()
        self._full_hits: Counter[str] = Counter()
        self.headers_seen: list[tuple[str, dict]] = []
        self._cacheable: dict[str, dict] = {}
        self._conditional: Counter[str] = Counter()
        self._not_modified: Counter[str] = Counter()
        self._lock = threading.Condition()  # also signals each counted request (wait_hits)
        self._flight = threading.Condition()
        self._in_flight: Counter[str] = Counter()
        self._peak: Counter[str] = Counter()
        self._released: set[str] = set()
        self.stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> "FixtureServer":
        self._httpd = _Server((self.host, self._port), Handler)
        self._httpd.fixture = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                        name=f"fixture-{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self.stopping.set()
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread:
            self._thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- addresses
    @property
    def port(self) -> int:
        assert self._httpd is not None
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base_url + path

    # -- extension
    def add_route(self, path: str, fn: Callable[[Handler, str, Callable], None]):
        """fn(handler, path, q) — q(name, default) reads a query parameter."""
        self.routes[path] = fn

    def add_prefix_route(self, prefix: str, fn):
        self.prefix_routes.insert(0, (prefix, fn))

    # -- hit counting
    def _count(self, path: str, full: str, headers: dict):
        with self._lock:
            self._hits[path] += 1
            self._full_hits[full] += 1
            if len(self.headers_seen) < 10000:
                self.headers_seen.append((full, headers))
            self._lock.notify_all()

    def hits(self, path: str) -> int:
        """Requests for `path`: with a query, that exact target; else any query."""
        with self._lock:
            return self._full_hits[path] if "?" in path else self._hits[path]

    def wait_hits(self, path: str, n: int = 1, timeout: float = 20) -> bool:
        """Waits, bounded, until `hits(path)` reaches `n` (the request has reached the server)."""
        with self._lock:
            return self._lock.wait_for(
                lambda: (self._full_hits[path] if "?" in path else self._hits[path]) >= n, timeout)

    def _count_conditional(self, path: str):
        with self._lock:
            self._conditional[path] += 1

    def _count_not_modified(self, path: str):
        with self._lock:
            self._not_modified[path] += 1

    def conditional_hits(self, path: str = "/cacheable") -> int:
        """Requests for `path` that carried If-None-Match or If-Modified-Since."""
        with self._lock:
            return self._conditional[path]

    def not_modified_hits(self, path: str = "/cacheable") -> int:
        """304 answers sent for `path`."""
        with self._lock:
            return self._not_modified[path]

    def set_cacheable(self, ident: str, **state):
        """State of /cacheable?id=ident: etag, last_modified, cache_control, title, delay_ms."""
        with self._lock:
            self._cacheable[ident] = dict(state)

    def cacheable_state(self, ident: str) -> dict:
        with self._lock:
            return dict(self._cacheable.get(ident, {}))

    # -- requests in flight, by their `key` query parameter (any route)
    def _enter(self, key: str):
        with self._flight:
            self._in_flight[key] += 1
            self._peak[key] = max(self._peak[key], self._in_flight[key])
            self._flight.notify_all()

    def _leave(self, key: str):
        with self._flight:
            self._in_flight[key] -= 1

    def wait_in_flight(self, key: str, n: int, seconds: float) -> bool:
        """Blocks until `n` requests with `key` are (or were) in flight at once; False after `seconds`."""
        deadline = time.monotonic() + seconds
        with self._flight:
            while self._peak[key] < n:
                left = deadline - time.monotonic()
                if left <= 0 or self.stopping.is_set():
                    return False
                self._flight.wait(min(left, 0.1))
            return True

    def release(self, key: str):
        """Lets every /held request of `key` answer, now and later."""
        with self._flight:
            self._released.add(key)
            self._flight.notify_all()

    def wait_released(self, h: Handler, key: str, seconds: float) -> bool:
        """Holds handler `h` until `key` is released; False after `seconds` (ClientGone if the client left)."""
        deadline = time.monotonic() + seconds
        while True:
            with self._flight:
                if key in self._released:
                    return True
                left = deadline - time.monotonic()
                if left <= 0 or self.stopping.is_set():
                    return False
                self._flight.wait(min(left, 0.1))
            h.check_client()

    def peak_in_flight(self, key: str) -> int:
        """The most requests with `key` that were in flight at once: what a concurrency check compares."""
        with self._flight:
            return self._peak[key]

    def total_hits(self) -> int:
        with self._lock:
            return sum(self._hits.values())

    def reset_hits(self):
        with self._lock:
            self._hits.clear()
            self._full_hits.clear()
            self.headers_seen.clear()
            self._conditional.clear()
            self._not_modified.clear()


if __name__ == "__main__":  # handy for poking at it by hand
    import sys
    s = FixtureServer(port=int(sys.argv[1]) if len(sys.argv) > 1 else 0).start()
    print(s.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        s.stop()
