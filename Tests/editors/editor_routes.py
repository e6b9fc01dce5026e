"""Routes the editor tests add to the integration fixture server.

``add_editor_routes(server)`` registers, on a started ``FixtureServer``:
  /hostile            a page whose title and summary try to inject Markdown and HTML
  /slowimage?ms=M     a page whose og:image answers after M ms, so the partial
                      result (head parsed) comes well before the final answer
  /img-slow?ms=M      that image
  /badimage           a page whose og:image is not found (404): fetched, never verified
  /slowdown           429 with `Retry-After: 90`: the daemon fails it `rateLimited` and holds
                      the host (the fixture's only one) for 90 s, so only a daemon of its own asks
  /challenge          a bot check (403, `cf-mitigated: challenge`) instead of the page:
                      the daemon fails it with reason `blocked`, `data.wall` challenge
"""

from __future__ import annotations

import html

from fixture_server import png_bytes

HOSTILE_TITLE = "Evil](javascript:alert(1)) <img src=x onerror=alert(2)> ```\n# heading\n[x]: javascript:alert(3)"
HOSTILE_SUMMARY = "<script>alert(4)</script> **bold** `code` | table |"


def add_editor_routes(server) -> None:
    def hostile(h, path, q):
        page = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                f"<meta property=\"og:title\" content=\"{html.escape(HOSTILE_TITLE)}\">"
                f"<meta property=\"og:description\" content=\"{html.escape(HOSTILE_SUMMARY)}\">"
                f"</head><body>x</body></html>")
        h.send(200, page.encode())

    def slowimage(h, path, q):
        ms = q("ms", "1500")
        page = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                f"<meta property=\"og:title\" content=\"Slow Image Page\">"
                f"<meta property=\"og:description\" content=\"The head is quick; the image is not.\">"
                f"<meta property=\"og:site_name\" content=\"Fixture Site\">"
                f"<meta property=\"og:image\" content=\"{h.base}/img-slow?ms={ms}\">"
                f"</head><body>x</body></html>")
        h.send(200, page.encode())

    def img_slow(h, path, q):
        h.wait_or_client_gone(int(q("ms", "1500")) / 1000.0)
        h.send(200, png_bytes(40, 20), "image/png")

    def challenge(h, path, q):
        page = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Just a moment...</title></head>"
                "<body><noscript>Enable JavaScript and cookies to continue</noscript></body></html>")
        h.send(403, page.encode(), headers={"cf-mitigated": "challenge"})

    def badimage(h, path, q):
        page = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                f"<meta property=\"og:title\" content=\"Bad Image Page\">"
                f"<meta property=\"og:image\" content=\"{h.base}/no-such-image.png\">"
                f"</head><body>x</body></html>")
        h.send(200, page.encode())

    def slowdown(h, path, q):
        h.send(429, b"<html><head><title>Too Many Requests</title></head><body>slow down</body></html>",
               headers={"Retry-After": "90"})

    server.add_route("/slowdown", slowdown)
    server.add_route("/badimage", badimage)
    server.add_route("/challenge", challenge)
    server.add_route("/hostile", hostile)
    server.add_route("/slowimage", slowimage)
    server.add_route("/img-slow", img_slow)
