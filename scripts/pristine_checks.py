#!/usr/bin/env python3
"""What `make check-pristine` runs inside a fresh Debian 12 root: fetch, an
LSP hover over `serve`, `image` and `man`, against a loopback server that
this script starts on the host (a chroot shares the host's network) and
stops. Every wait is bounded.

Usage: pristine_checks.py ROOT BINARY   (BINARY as seen inside ROOT; `man`
runs with BINARY's folder first on PATH, as a user who unpacked the tarball has it)
"""
import http.server
import json
import os
import struct
import subprocess
import sys
import threading
import zlib

TITLE = "Pristine Debian check"


def png(width, height):
    """A small opaque PNG, made without any library."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + bytes(v for x in range(width) for v in (x * 7 % 256, y * 5 % 256, 128))
                    for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


IMAGE = png(64, 48)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/page":
            body = (f'<!DOCTYPE html><html><head><title>{TITLE}</title>'
                    f'<meta property="og:image" content="/image.png"></head><body>x</body></html>').encode()
            kind = "text/html; charset=utf-8"
        elif self.path == "/image.png":
            body, kind = IMAGE, "image/png"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def inside(root, *args, **kwargs):
    return subprocess.run(["chroot", root, *args], capture_output=True, timeout=120, **kwargs)


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"), flush=True)
    return ok


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the daemon closed its output")
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def hover(root, binary, url):
    """An LSP session: initialize, open a Markdown note with `url`, hover over it; the card's text."""
    daemon = subprocess.Popen(["chroot", root, binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    timer = threading.Timer(60, daemon.kill)  # the bound on the whole session
    timer.start()
    try:
        text = f"See {url} for more.\n"
        messages = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": None, "capabilities": {},
                        "initializationOptions": {"allowPrivateNetwork": True}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": "file:///note.md", "languageId": "markdown", "version": 1,
                                         "text": text}}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": "file:///note.md"},
                        "position": {"line": 0, "character": text.index(url) + 5}}},
        ]
        for message in messages:
            daemon.stdin.write(frame(message))
        daemon.stdin.flush()
        card = None
        while card is None:
            message = read_frame(daemon.stdout)
            if message.get("id") == 2:
                result = message.get("result") or {}
                card = (result.get("contents") or {}).get("value", "") or json.dumps(message)
        daemon.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
        daemon.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        daemon.stdin.flush()
        daemon.wait(timeout=30)
        return card, daemon.returncode
    finally:
        timer.cancel()
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait(timeout=10)


def main():
    root, binary = sys.argv[1:3]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    results = []
    try:
        version = inside(root, binary, "--version", text=True)
        results.append(check("linkpeek --version", version.returncode == 0 and "commit" in version.stdout,
                             version.stdout + version.stderr))
        print("     " + version.stdout.strip())

        fetch = inside(root, binary, "fetch", "--allow-private-network", base + "/page", text=True)
        title = json.loads(fetch.stdout).get("title") if fetch.returncode == 0 else None
        results.append(check("linkpeek fetch", title == TITLE, fetch.stdout + fetch.stderr))

        again = inside(root, binary, "fetch", "--allow-private-network", "--cache-policy", "cacheOnly",
                       base + "/page", text=True)
        from_cache = json.loads(again.stdout) if again.returncode == 0 else {}
        results.append(check("linkpeek fetch from the cache on disk", from_cache.get("fromCache") is True,
                             again.stdout + again.stderr))

        card, code = hover(root, binary, base + "/page")
        results.append(check("linkpeek serve: LSP hover card", TITLE in card and code == 0, f"{card} (exit {code})"))

        image = inside(root, binary, "image", "--allow-private-network", "--width", "32", "--format", "png",
                       "-o", "/tmp/pristine.png", base + "/page", text=True)
        written = inside(root, "head", "-c", "8", "/tmp/pristine.png")
        results.append(check("linkpeek image", image.returncode == 0 and written.stdout == b"\x89PNG\r\n\x1a\n",
                             image.stderr))

        manual = inside(root, "env", "MANWIDTH=80", f"PATH={os.path.dirname(binary) or '/usr/bin'}:/usr/bin:/bin",
                        "man", "-P", "cat", "linkpeek", text=True)
        results.append(check("man linkpeek", manual.returncode == 0 and "linkpeek fetch" in manual.stdout,
                             manual.stderr))
    finally:
        server.shutdown()
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
