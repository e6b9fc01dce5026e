"""Images: `getMedia`, `linkpeek image`, `fetch`'s `thumbnail` and `prefetch`.

Every fixture image is generated here (image_fixtures.py, with the `vips`
command for the ordinary formats) and served by a loopback fixture server
that counts its hits. Output is checked by magic bytes, exact pixel sizes,
and pixels read back with `vips getpoint`.
"""

from __future__ import annotations

import base64
import struct
import subprocess
import time

import os

import pytest

import image_fixtures as fx
from fixture_server import FixtureServer
from linkpeek_client import LinkPeekError
from procinfo import vm_hwm_kb

pytestmark = pytest.mark.skipif(not fx.have_vips() and not os.environ.get("CI"), reason="the vips command (libvips-tools) makes the fixtures")

PNG, JPEG, GIF = b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF8"


def is_webp(data: bytes) -> bool:
    return data[:4] == b"RIFF" and data[8:12] == b"WEBP"


def is_avif(data: bytes) -> bool:
    return data[4:8] == b"ftyp" and b"avif" in data[8:32]


def jpeg_segments(data: bytes) -> list[int]:
    """The markers of a JPEG's header segments, up to the scan."""
    markers, i = [], 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        markers.append(marker)
        if marker == 0xDA:
            break
        i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
    return markers


def pixel(tmp_path, data: bytes, x: int, y: int) -> list[float]:
    path = tmp_path / f"probe-{time.monotonic_ns()}"
    path.write_bytes(data)
    out = subprocess.run(["vips", "getpoint", str(path), str(x), str(y)], check=True, capture_output=True,
                         text=True, timeout=30).stdout
    return [float(v) for v in out.split()]


def header_field(tmp_path, data: bytes, field: str, suffix: str = "") -> str:
    path = tmp_path / f"header-{time.monotonic_ns()}{suffix}"
    path.write_bytes(data)
    return subprocess.run(["vipsheader", "-f", field, str(path)], check=True, capture_output=True, text=True,
                          timeout=30).stdout.strip()


# ---------------------------------------------------------------- fixtures

class Images:
    """The generated fixtures, by route."""

    def __init__(self, tmp):
        self.tmp = tmp
        marked = fx.ppm(600, 400, fx.marked(600, 400, 150))
        self.routes: dict[str, tuple[bytes, str]] = {
            "/photo.jpg": (fx.with_exif(fx.convert(tmp, "photo", marked, ".jpg[Q=90]"), orientation=6), "image/jpeg"),
            "/wide.png": (fx.convert(tmp, "wide", fx.ppm(400, 200, lambda x, y: (0, 128, 255)), ".png"), "image/png"),
            "/wide.webp": (fx.convert(tmp, "wide", fx.ppm(400, 200, lambda x, y: (0, 128, 255)), ".webp"), "image/webp"),
            "/alpha.png": (fx.rgba_png(100, 50, lambda x, y: (0, 0, 0, 0) if x < 50 else (255, 0, 0, 255)), "image/png"),
            "/anim.gif": (fx.animated_gif(40, 20, frames=3), "image/gif"),
            "/icons.ico": (fx.ico([(16, fx.rgba_png(16, 16, lambda x, y: (0, 0, 255, 255))),
                                   (48, fx.dib_bgra(48, lambda x, y: (0, 255, 0, 255))),
                                   (32, fx.rgba_png(32, 32, lambda x, y: (0, 0, 255, 255)))]), "image/x-icon"),
            "/logo.svg": (fx.svg_logo(view_box=True), "image/svg+xml"),
            "/top-red.bmp": (fx.bmp24(30, 20, lambda x, y: (255, 0, 0) if y < 10 else (0, 0, 255)), "image/bmp"),
            "/sized.svg": (fx.svg_logo(view_box=False), "image/svg+xml"),
            "/bomb.png": (fx.pixel_bomb_png(100_000), "image/png"),
            "/html.png": (b"<!DOCTYPE html><html><head><title>not an image</title></head><body>x</body></html>",
                          "image/png"),
            "/huge.png": (PNG + b"\x00" * (6 * 1024 * 1024), "image/png"),
        }
        red = tmp / "red.ppm"
        red.write_bytes(fx.ppm(64, 32, lambda x, y: (255, 0, 0)))
        # sRGB red converted to Display P3, with the P3 profile embedded.
        fx.vips("icc_transform", str(red), f"{tmp / 'p3.jpg'}[Q=95]", "p3", "--input-profile", "srgb")
        self.routes["/p3.jpg"] = ((tmp / "p3.jpg").read_bytes(), "image/jpeg")
        full = self.routes["/photo.jpg"][0]
        self.routes["/truncated.jpg"] = (full[: len(full) // 2], "image/jpeg")
        try:
            self.routes["/photo.avif"] = (fx.convert(tmp, "avif", fx.ppm(64, 32, lambda x, y: (200, 0, 0)), ".avif"),
                                          "image/avif")
        except subprocess.CalledProcessError:
            pass  # no AV1 encoder in this libheif: the AVIF cases skip
        # A file the hostile SVG names by path: red, so that loading it would show.
        self.secret = tmp / "secret.png"
        self.secret.write_bytes(fx.rgba_png(100, 100, lambda x, y: (255, 0, 0, 255)))


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    return Images(tmp_path_factory.mktemp("images"))


@pytest.fixture(scope="module")
def img_server(images):
    server = FixtureServer().start()

    def serve(body: bytes, ctype: str):
        return lambda h, path, q: h.send(200, body, ctype, headers={"Cache-Control": "max-age=3600"})

    for path, (body, ctype) in images.routes.items():
        server.add_route(path, serve(body, ctype))
    base = server.base_url
    wide = images.routes["/wide.png"][0]

    def slow_wide(h, path, q):
        time.sleep(0.5)
        h.send(200, wide, "image/png", headers={"Cache-Control": "max-age=3600"})

    server.add_route("/slow-wide.png", slow_wide)
    server.add_route("/slow-wide-2.png", slow_wide)

    def slow_html(h, path, q):
        time.sleep(0.5)
        h.send(200, images.routes["/html.png"][0], "image/png", headers={"Cache-Control": "max-age=3600"})

    server.add_route("/slow-html.png", slow_html)
    server.add_route("/slow-article", serve(f"""<!DOCTYPE html><html><head><title>Slow image</title>
<meta property="og:image" content="{base}/slow-wide-2.png"></head><body>x</body></html>""".encode(),
                                            "text/html; charset=utf-8"))
    server.add_route("/external.svg", serve(fx.svg_external(base, str(images.secret)), "image/svg+xml"))
    server.add_route("/xxe.svg", serve(fx.svg_xxe(str(images.secret)), "image/svg+xml"))
    for name in ("pi.css", "import.css", "paint.svg", "href.png", "xlink.png", "use.svg", "style.svg"):
        server.add_route(f"/ext/{name}", serve(b"", "image/png"))
    server.add_route("/article", serve(f"""<!DOCTYPE html><html><head><title>Article</title>
<meta property="og:image" content="{base}/wide.png"><link rel="icon" href="/icons.ico">
</head><body>x</body></html>""".encode(), "text/html; charset=utf-8"))
    yield server
    server.stop()


@pytest.fixture
def image_cli(run_cli, tmp_path):
    """image_cli(url, *flags) -> (CLIResult, bytes written with -o)."""

    def run(url, *flags):
        out = tmp_path / f"out-{time.monotonic_ns()}"
        res = run_cli("image", "--allow-private-network", url, *flags, "-o", str(out), parse=False)
        return res, (out.read_bytes() if out.exists() else b"")

    return run


@pytest.fixture
def daemon(make_client):
    """daemon(private=True, args=()) -> a client on the test's XDG cache (so a restart finds it again)."""
    return lambda private=True, args=(): make_client(private=private, args=args, own_cache=False)


def decoded(result: dict) -> bytes:
    data = base64.b64decode(result["data"])
    assert len(data) == result["bytes"]
    return data


# ---------------------------------------------------------------- transforms

def test_jpeg_orientation_applied_and_metadata_stripped(images, img_server, image_cli, tmp_path):
    source = images.routes["/photo.jpg"][0]
    assert b"Exif" in source and 0xE1 in jpeg_segments(source), "fixture lacks its EXIF segment"
    res, out = image_cli(img_server.url("/photo.jpg"), "--width", "200")
    assert res.returncode == 0, res.describe()
    assert out[:3] == JPEG
    # Stored 600x400 with orientation 6 (rotate 90° clockwise) shows as 400x600.
    assert header_field(tmp_path, out, "width") == "200"
    assert header_field(tmp_path, out, "height") == "300"
    # The stored top-left mark ends up top-right.
    assert pixel(tmp_path, out, 190, 10)[0] > 200
    for x, y in ((10, 10), (10, 290), (190, 290)):
        assert pixel(tmp_path, out, x, y)[0] < 50, (x, y)
    # No EXIF (so no GPS), no XMP, no ICC: only JFIF, tables, frame, scan.
    assert 0xE1 not in jpeg_segments(out) and 0xE2 not in jpeg_segments(out)
    assert b"Exif" not in out


def webp_chunks(data: bytes) -> dict[bytes, bytes]:
    chunks, i = {}, 12
    while i + 8 <= len(data):
        kind, size = data[i:i + 4], struct.unpack("<I", data[i + 4:i + 8])[0]
        chunks[kind] = data[i + 8:i + 8 + size]
        i += 8 + size + (size & 1)
    return chunks


def test_no_gps_in_webp(images, img_server, image_cli):
    """libvips 8.14's WebP saver rebuilds EXIF from the decoded fields
    whatever `strip` says: the fields are removed before saving."""
    source = images.routes["/photo.jpg"][0]
    assert b"\x88\x25" in source, "fixture lacks its GPS IFD pointer"
    res, out = image_cli(img_server.url("/photo.jpg"), "--width", "40", "--format", "webp")
    assert res.returncode == 0, res.describe()
    assert is_webp(out)
    exif = webp_chunks(out).get(b"EXIF", b"")
    # Whatever EXIF libvips writes of its own (resolution), no GPS IFD pointer (tag 0x8825) in either byte order.
    assert b"\x88\x25" not in exif and b"\x25\x88" not in exif, exif


def test_colour_profile_converted_to_srgb(images, img_server, image_cli, tmp_path):
    source = images.routes["/p3.jpg"][0]
    r, g, b = pixel(tmp_path, source, 5, 5)
    assert r < 240 and g > 40, f"fixture is not P3-encoded red: {(r, g, b)}"
    res, out = image_cli(img_server.url("/p3.jpg"), "--width", "32")
    assert res.returncode == 0, res.describe()
    r, g, b = pixel(tmp_path, out, 5, 5)
    assert r > 245 and g < 15 and b < 15, f"P3 values kept instead of converted to sRGB: {(r, g, b)}"
    assert 0xE2 not in jpeg_segments(out), "the ICC profile was not stripped"


@pytest.mark.parametrize("flags,size", [
    (["--width", "100"], (100, 50)),
    (["--height", "50"], (100, 50)),
    (["--width", "100", "--height", "100"], (100, 50)),
    (["--width", "100", "--height", "100", "--fit", "cover"], (100, 100)),
    (["--width", "100", "--height", "30", "--fit", "fill"], (100, 30)),
    (["--width", "100", "--dpr", "2"], (200, 100)),
    (["--width", "100", "--height", "100", "--fit", "cover", "--dpr", "1.5"], (150, 150)),
    (["--width", "1500", "--dpr", "4"], (2048, 1024)),
    ([], (400, 200)),
])
def test_sizes(img_server, image_cli, tmp_path, flags, size):
    res, out = image_cli(img_server.url("/wide.png"), *flags)
    assert res.returncode == 0, res.describe()
    assert out[:8] == PNG
    assert (int(header_field(tmp_path, out, "width")), int(header_field(tmp_path, out, "height"))) == size


@pytest.mark.parametrize("fmt,check", [("png", lambda d: d[:8] == PNG), ("jpeg", lambda d: d[:3] == JPEG),
                                       ("webp", is_webp), ("avif", is_avif)])
def test_output_formats(img_server, image_cli, fmt, check):
    res, out = image_cli(img_server.url("/wide.webp"), "--width", "40", "--format", fmt)
    assert res.returncode == 0, res.describe()
    assert check(out), out[:16]


def test_avif_source(images, img_server, image_cli, tmp_path):
    if "/photo.avif" not in images.routes:
        pytest.skip("libheif here has no AV1 encoder to make the fixture")
    res, out = image_cli(img_server.url("/photo.avif"), "--width", "32")
    assert res.returncode == 0, res.describe()
    assert out[:8] == PNG and header_field(tmp_path, out, "height") == "16"


def test_alpha_kept_in_png_and_flattened_in_jpeg(img_server, image_cli, tmp_path):
    res, png = image_cli(img_server.url("/alpha.png"), "--width", "100")
    assert res.returncode == 0, res.describe()
    assert png[:8] == PNG and png[25] == 6, "colour type 6 (RGBA) expected"
    assert pixel(tmp_path, png, 10, 10)[3] == 0
    res, jpg = image_cli(img_server.url("/alpha.png"), "--width", "100", "--format", "jpeg", "--background", "#00ff00")
    assert res.returncode == 0, res.describe()
    r, g, b = pixel(tmp_path, jpg, 10, 25)
    assert g > 200 and r < 60 and b < 60, (r, g, b)
    r, g, b = pixel(tmp_path, jpg, 90, 25)
    assert r > 200 and g < 60, (r, g, b)


def test_animated_gif_first_frame_unless_original(img_server, image_cli, tmp_path):
    res, first = image_cli(img_server.url("/anim.gif"))
    assert res.returncode == 0, res.describe()
    assert first[:8] == PNG and header_field(tmp_path, first, "height") == "20"
    res, original = image_cli(img_server.url("/anim.gif"), "--format", "original")
    assert res.returncode == 0, res.describe()
    assert original[:4] == GIF
    assert header_field(tmp_path, original, "n-pages", ".gif") == "3"


def test_ico_largest_entry(img_server, image_cli, tmp_path):
    res, out = image_cli(img_server.url("/icons.ico"))
    assert res.returncode == 0, res.describe()
    assert out[:8] == PNG
    assert header_field(tmp_path, out, "width") == "48" and header_field(tmp_path, out, "height") == "48"
    r, g, b, a = pixel(tmp_path, out, 24, 24)
    assert g > 200 and r < 50 and b < 50 and a == 255, "the 48 px entry is the green bitmap"


def test_bmp_decoded_without_imagemagick(img_server, image_cli, tmp_path):
    res, out = image_cli(img_server.url("/top-red.bmp"), "--width", "60")
    assert res.returncode == 0, res.describe()
    assert out[:8] == PNG and (header_field(tmp_path, out, "width"), header_field(tmp_path, out, "height")) == ("60", "40")
    assert pixel(tmp_path, out, 30, 5)[:3] == [255, 0, 0], "rows upside down"
    assert pixel(tmp_path, out, 30, 35)[:3] == [0, 0, 255]


def test_original_for_formats_libvips_cannot_write(daemon, images, img_server):
    """format original: an unresized SVG is the sanitised SVG itself; a resized
    one, an ICO and a BMP become PNG, and sourceType says what they were."""
    c = daemon()
    svg = c.get_media(img_server.url("/sized.svg"), format="original")
    assert (svg["type"], svg["sourceType"], svg["width"], svg["height"]) == ("image/svg+xml", "image/svg+xml", 100, 50)
    assert decoded(svg) == images.routes["/sized.svg"][0], "a clean SVG comes back as it was"
    boxed = c.get_media(img_server.url("/logo.svg"), format="original", dpr=2)
    assert (boxed["type"], boxed["width"], boxed["height"]) == ("image/svg+xml", 100, 50), "dpr alone sizes nothing"
    hostile = c.get_media(img_server.url("/external.svg"), format="original")
    text = decoded(hostile)
    assert hostile["type"] == "image/svg+xml" and text.startswith(b"<?xml")
    for named in (img_server.url("/ext/").encode(), str(images.secret).encode()):
        assert named not in text, f"{named!r} left in the SVG handed out"
    assert b'href="#"' in text
    resized = c.get_media(img_server.url("/sized.svg"), format="original", width=50)
    assert (resized["type"], resized["sourceType"], resized["width"], resized["height"]) == (
        "image/png", "image/svg+xml", 50, 25)
    assert decoded(resized)[:8] == PNG
    icon = c.get_media(img_server.url("/icons.ico"), format="original")
    assert (icon["type"], icon["sourceType"], icon["width"]) == ("image/png", "image/x-icon", 48)
    bmp = c.get_media(img_server.url("/top-red.bmp"), format="original")
    assert (bmp["type"], bmp["sourceType"], bmp["width"], bmp["height"]) == ("image/png", "image/bmp", 30, 20)
    assert decoded(bmp)[:8] == PNG
    jpeg = c.get_media(img_server.url("/photo.jpg"), format="original", width=40)
    assert (jpeg["type"], jpeg["sourceType"]) == ("image/jpeg", "image/jpeg")


@pytest.mark.parametrize("route", ["/logo.svg", "/sized.svg"])
def test_svg_rasterised_at_requested_size(img_server, image_cli, tmp_path, route):
    res, out = image_cli(img_server.url(route), "--width", "320")
    assert res.returncode == 0, res.describe()
    assert out[:8] == PNG
    assert (header_field(tmp_path, out, "width"), header_field(tmp_path, out, "height")) == ("320", "160")
    # Drawn at 320 px, not drawn at 100 and enlarged: the circle's edge is sharp.
    assert pixel(tmp_path, out, 160, 80)[:3] == [0, 0, 255]
    assert pixel(tmp_path, out, 5, 5)[:3] == [255, 0, 0]
    edge = [pixel(tmp_path, out, x, 80)[2] for x in range(90, 110)]
    assert sum(1 for v in edge if 10 < v < 245) <= 2, edge


# ---------------------------------------------------------------- hostile input

def test_svg_fetches_nothing(images, img_server, image_cli, tmp_path):
    before = {p: img_server.hits(p) for p in ["/ext/pi.css", "/ext/import.css", "/ext/paint.svg", "/ext/href.png",
                                              "/ext/xlink.png", "/ext/use.svg", "/ext/style.svg"]}
    res, out = image_cli(img_server.url("/external.svg"), "--width", "100")
    assert res.returncode == 0, res.describe()
    assert {p: img_server.hits(p) for p in before} == before, "the SVG's external references were fetched"
    # The red file named by path and file: was not drawn over the white background.
    assert pixel(tmp_path, out, 50, 50)[:3] == [255, 255, 255]


def test_refusals(daemon, img_server):
    c = daemon()
    cases = [("/xxe.svg", "unsupportedImage"), ("/html.png", "unsupportedImage"),
             ("/truncated.jpg", "decodeFailed"), ("/huge.png", "imageTooLarge"), ("/bomb.png", "imageTooLarge")]
    for route, reason in cases:
        with pytest.raises(LinkPeekError) as err:
            c.get_media(img_server.url(route), width=64)
        assert (err.value.code, err.value.kind, err.value.reason) == (-32000, "failed", reason), route
        assert err.value.message.startswith("Image fetch failed: ")
        # A failure is kept a few minutes: the same request does not fetch again.
        hits = img_server.hits(route)
        with pytest.raises(LinkPeekError) as again:
            c.get_media(img_server.url(route), width=64)
        assert again.value.reason == reason and img_server.hits(route) == hits, route


def test_pixel_bomb_refused_fast_and_small(daemon, img_server):
    c = daemon()
    c.get_media(img_server.url("/wide.png"), width=32)   # libvips loaded and warm
    rss_before = vm_hwm_kb(c.pid)
    with pytest.raises(LinkPeekError) as err:
        c.get_media(img_server.url("/bomb.png"), width=64)
    assert err.value.reason == "imageTooLarge"
    assert "100000×100000" in err.value.message
    # Refused from the header, before any decoding: no memory grew (10^10 pixels would need gigabytes).
    # How fast it is refused is Benchmarks/bench_images.py's to report, not a test's verdict.
    assert vm_hwm_kb(c.pid) - rss_before < 20 * 1024


def test_private_address_refused_by_policy(daemon, img_server):
    c = daemon(private=False)
    with pytest.raises(LinkPeekError) as err:
        c.get_media(img_server.url("/wide.png"), width=32)
    assert err.value.reason == "blockedAddress"


def test_redirect_to_a_blocked_address_refused(daemon, img_server):
    """Only the fixture server's address is opened: a redirect to another
    loopback address is refused by the policy, before any connection."""
    c = daemon(private=False, args=["--allow-network", "127.0.0.1/32"])
    target = f"http://127.0.0.2:{img_server.port}/wide.png"
    with pytest.raises(LinkPeekError) as err:
        c.get_media(img_server.url(f"/redirect?status=302&to={target}"), width=32)
    assert err.value.reason == "blockedAddress"
    assert c.get_media(img_server.url("/wide.png"), width=32)["width"] == 32


def test_get_media_cancelled(daemon, img_server):
    c = daemon()
    key = f"media-{os.getpid()}-{time.monotonic_ns()}"
    fut = c.request_async("getMedia", {"url": img_server.url(f"/held?key={key}"), "width": 32}, id="slow-image")
    assert img_server.wait_in_flight(key, 1, 20), "the image request never reached the server"
    c.cancel_request("slow-image")
    # Answered by the cancel: the image is held at the server, never released.
    with pytest.raises(LinkPeekError) as err:
        fut.result(timeout=10)
    assert err.value.code == -32800


# ---------------------------------------------------------------- progress

def progress_of(c, url, **params):
    values = []
    result = c.get_media(url, on_progress=values.append, **params)
    return result, values


def test_get_media_progress_for_an_image(daemon, images, img_server):
    c = daemon()
    result, values = progress_of(c, img_server.url("/slow-wide.png"), width=40)
    assert result["width"] == 40
    # begin at once (the URL is being downloaded); the download takes 0.5 s, so
    # the transform's report is not merged into it; end before the response.
    assert [(v["kind"], v.get("stage")) for v in values] == [
        ("begin", "downloading"), ("report", "transforming"), ("end", "transforming")], values
    assert values[0]["title"] == f"Fetching image for {img_server.url('/slow-wide.png')}"
    assert values[1]["bytes"] == len(images.routes["/wide.png"][0])
    assert values[2]["message"] == "done"
    # The variant is cached now: a repeat needs no work, and its token gets
    # only begin and end (protocol §7: every workDoneToken gets both).
    again, values = progress_of(c, img_server.url("/slow-wide.png"), width=40)
    assert again["data"] == result["data"]
    assert [v["kind"] for v in values] == ["begin", "end"], values


def test_get_media_progress_for_a_page(daemon, img_server):
    c = daemon()
    result, values = progress_of(c, img_server.url("/slow-article"), width=40)
    assert result["sourceURL"] == img_server.url("/slow-wide-2.png")
    kinds = [v["kind"] for v in values]
    stages = [v.get("stage") for v in values]
    assert kinds[0] == "begin" and kinds[-1] == "end" and set(kinds[1:-1]) == {"report"}, values
    assert stages[0] == "downloading"
    # The page fetch's own stages come through (merged: the page is quick,
    # and its subresources start together), then the page's image is
    # fetched (0.5 s, after the page fetch's own 0.5 s look at it) and
    # transformed: those two reports come last, unmerged.
    page_stages = stages[1:-3]
    assert page_stages and set(page_stages) <= {"resolving", "connecting", "waiting", "downloading", "parsing", "icon", "image"}, values
    assert stages[-3:] == ["image", "transforming", "transforming"], values
    assert values[-1]["message"] == "done"


def test_get_media_progress_ends_on_failure(daemon, img_server):
    c = daemon()
    values = []
    with pytest.raises(LinkPeekError) as err:
        c.get_media(img_server.url("/slow-html.png"), width=40, on_progress=values.append)
    assert err.value.data["reason"] == "unsupportedImage"
    assert [(v["kind"], v.get("stage")) for v in values] == [
        ("begin", "downloading"), ("report", "transforming"), ("end", "transforming")], values
    assert values[-1]["message"] == err.value.message


def test_get_media_cancelled_by_its_progress_token(daemon, img_server):
    c = daemon()
    values = []
    c._token_handlers["media-cancel"] = values.append
    fut = c.request_async("getMedia", {"url": img_server.url("/slow?ms=20000"), "width": 32,
                                       "workDoneToken": "media-cancel"}, id="media-cancel-id")
    deadline = time.monotonic() + 5
    while not values and time.monotonic() < deadline:
        time.sleep(0.02)
    assert values and values[0]["kind"] == "begin" and values[0]["cancellable"] is True, values
    c.notify("window/workDoneProgress/cancel", {"token": "media-cancel"})
    # Answered within 10 s, before the 20 s image could have arrived: by the cancel.
    with pytest.raises(LinkPeekError) as err:
        fut.result(timeout=10)
    assert err.value.code == -32800
    # The end was handled before the answer was (one reader thread, in order).
    assert [v["kind"] for v in values] == ["begin", "end"], values


# ---------------------------------------------------------------- pages, cache, protocol

def test_page_image_and_icon(daemon, img_server):
    c = daemon()
    image = c.get_media(img_server.url("/article"), width=100)
    assert image["sourceURL"] == img_server.url("/wide.png")
    assert (image["url"], image["type"], image["width"], image["height"]) == (
        img_server.url("/article"), "image/png", 100, 50)
    assert decoded(image)[:8] == PNG
    icon = c.get_media(img_server.url("/article"), kind="icon", width=24, format="webp")
    assert icon["sourceURL"] == img_server.url("/icons.ico")
    assert (icon["type"], icon["width"], icon["height"]) == ("image/webp", 24, 24)
    assert is_webp(decoded(icon))


def test_cache_serves_repeats_and_new_sizes_without_refetching(daemon, img_server):
    c = daemon()
    page, image = img_server.url("/article"), "/wide.png"
    first = c.get_media(page, width=80)
    hits = (img_server.hits("/article"), img_server.hits(image))
    again = c.get_media(page, width=80)
    assert again == first
    assert (img_server.hits("/article"), img_server.hits(image)) == hits, "a repeat reached the server"
    other = c.get_media(page, width=40, format="jpeg")
    assert (other["width"], other["type"]) == (40, "image/jpeg")
    assert (img_server.hits("/article"), img_server.hits(image)) == hits, "a new size refetched the source"


@pytest.mark.parametrize("params,message", [
    ({"width": 0}, "width must be an integer from 1 to 2048 (pixels)"),
    ({"width": 2049}, "width must be an integer from 1 to 2048 (pixels)"),
    ({"width": 1.5}, "width must be an integer from 1 to 2048 (pixels)"),
    ({"height": 1e300}, "height must be an integer from 1 to 2048 (pixels)"),
    ({"dpr": 5}, "dpr must be a number from 1 to 4"),
    ({"quality": 0}, "quality must be an integer from 1 to 100"),
    ({"fit": "stretch"}, "fit must be one of contain, cover, fill"),
    ({"format": "gif"}, "format must be one of png, webp, jpeg, avif, original"),
    ({"kind": "logo"}, "kind must be one of image, icon, auto"),
    ({"background": "red"}, "background must be a colour like #ffffff"),
    ({"width": "100"}, "width must be a number"),
])
def test_bad_params(daemon, img_server, params, message):
    c = daemon()
    with pytest.raises(LinkPeekError) as err:
        c.request("getMedia", {"url": img_server.url("/wide.png"), **params})
    assert (err.value.code, err.value.message) == (-32602, message)


def test_cli_rejects_bad_flags(run_cli, img_server):
    res = run_cli("image", img_server.url("/wide.png"), "--width", "5000", "--base64", parse=False)
    assert res.returncode == 2 and "--width must be an integer from 1 to 2048" in res.stderr, res.describe()


def test_cli_refuses_binary_to_a_terminal(linkpeek_bin, img_server):
    import os
    import pty
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([linkpeek_bin, "image", "--allow-private-network", img_server.url("/wide.png"),
                               "--width", "10"], stdout=slave, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(slave)
        os.close(master)
    assert proc.returncode == 2
    assert b"stdout is a terminal: give -o FILE or --base64" in proc.stderr


def test_cli_cache_flags(run_cli, img_server, tmp_path):
    """linkpeek image keeps its sources and variants in --cache-dir (a repeat
    is served from there); --no-cache keeps nothing on disk."""
    url, route = img_server.url("/wide.webp"), "/wide.webp"
    cache, out = tmp_path / "cache", tmp_path / "out.png"
    hits = img_server.hits(route)
    for _ in range(2):
        res = run_cli("image", "--allow-private-network", "--cache-dir", str(cache), url, "--width", "10",
                      "-o", str(out), parse=False)
        assert res.returncode == 0, res.describe()
        assert out.read_bytes()[:8] == PNG
    assert img_server.hits(route) == hits + 1, "the repeat was not served from the cache directory"
    assert (cache / "cache.sqlite").exists()
    unused = tmp_path / "unused"
    res = run_cli("image", "--allow-private-network", "--no-cache", "--cache-dir", str(unused), url, "--width", "10",
                  "-o", str(out), parse=False)
    assert res.returncode == 0, res.describe()
    assert img_server.hits(route) == hits + 2 and not unused.exists()


def test_cli_base64_and_stdout(run_cli, img_server, linkpeek_bin):
    res = run_cli("image", "--allow-private-network", img_server.url("/wide.png"), "--width", "10", "--base64")
    assert res.returncode == 0, res.describe()
    assert (res.one["width"], res.one["height"], res.one["type"]) == (10, 5, "image/png")
    failed = run_cli("image", "--allow-private-network", img_server.url("/bomb.png"), "--width", "10", "--base64")
    assert failed.returncode == 1
    assert (failed.one["error"]["kind"], failed.one["error"]["reason"]) == ("failed", "imageTooLarge")
    assert "Image fetch failed: the image declares 100000×100000 pixels" in failed.stderr
    raw = subprocess.run([linkpeek_bin, "image", "--allow-private-network", img_server.url("/wide.png"),
                          "--width", "10"], capture_output=True, timeout=60)
    assert raw.returncode == 0 and raw.stdout[:8] == PNG


def test_fetch_attaches_thumbnails(daemon, img_server):
    c = daemon()
    meta = c.request("fetch", {"url": img_server.url("/article"), "thumbnail": {"width": 50, "format": "jpeg"}})
    thumb = meta["image"]["thumbnail"]
    assert (thumb["type"], thumb["width"], thumb["height"]) == ("image/jpeg", 50, 25)
    assert base64.b64decode(thumb["data"])[:3] == JPEG
    icon = meta["icon"]["thumbnail"]
    assert (icon["width"], icon["height"]) == (50, 50)
    plain = c.request("fetch", {"url": img_server.url("/article")})
    assert "thumbnail" not in plain["image"], "a thumbnail leaked into the cached preview"
    with pytest.raises(LinkPeekError) as err:
        c.request("fetch", {"url": img_server.url("/article"), "thumbnail": {"width": 0}})
    assert err.value.message == "thumbnail.width must be an integer from 1 to 2048 (pixels)"


def test_cache_only_fetch_makes_thumbnails_from_cached_images_only(daemon, img_server):
    c = daemon()
    page = img_server.url("/article")
    c.request("fetch", {"url": page, "fetchSubresources": False})
    hits = img_server.hits("/wide.png")
    offline = c.request("fetch", {"url": page, "cachePolicy": "cacheOnly", "thumbnail": {"width": 40}})
    assert "thumbnail" not in offline["image"] and img_server.hits("/wide.png") == hits
    assert c.get_media(page, width=20)["width"] == 20, "a cache-only miss must not be remembered as a failure"
    hits = img_server.hits("/wide.png")
    offline = c.request("fetch", {"url": page, "cachePolicy": "cacheOnly", "thumbnail": {"width": 40}})
    assert offline["image"]["thumbnail"]["width"] == 40 and img_server.hits("/wide.png") == hits


def test_concurrent_requests_share_one_source_fetch(daemon, img_server):
    c = daemon()
    url = img_server.url("/slow-wide.png?shared")
    before = img_server.hits("/slow-wide.png")
    futures = [c.request_async("getMedia", {"url": url, "width": w}) for w in (30, 40, 50)]
    assert [f.result(timeout=30)["width"] for f in futures] == [30, 40, 50]
    assert img_server.hits("/slow-wide.png") - before == 1


def test_cancelling_one_of_two_sharing_a_fetch(daemon, img_server):
    c = daemon()
    url = img_server.url("/slow-wide.png?cancel")
    before = img_server.hits("/slow-wide.png")
    first = c.request_async("getMedia", {"url": url, "width": 30}, id="first")
    second = c.request_async("getMedia", {"url": url, "width": 40}, id="second")
    time.sleep(0.2)
    c.cancel_request("first")
    with pytest.raises(LinkPeekError) as err:
        first.result(timeout=10)
    assert err.value.code == -32800
    assert second.result(timeout=30)["width"] == 40
    assert img_server.hits("/slow-wide.png") - before == 1


def test_prefetch_warms_previews_and_thumbnails(daemon, img_server):
    c = daemon()
    progress = []
    urls = [img_server.url("/article"), img_server.url("/wide.webp"), img_server.url("/status/404")]
    result = c.prefetch(urls, thumbnail={"width": 30}, on_progress=progress.append)
    assert (result["total"], result["succeeded"], result["failed"]) == (3, 2, 1)
    assert [f["url"] for f in result["failures"]] == [img_server.url("/status/404")]
    assert result["failures"][0]["reason"] == "httpStatus"
    assert [p["kind"] for p in (progress[0], progress[-1])] == ["begin", "end"]
    assert any(p.get("message") == "3/3" and p.get("percentage") == 100 for p in progress)
    hits = (img_server.hits("/article"), img_server.hits("/wide.png"), img_server.hits("/icons.ico"))
    assert c.request("getCached", {"url": img_server.url("/article")})["title"] == "Article"
    thumb = c.get_media(img_server.url("/article"), width=30)
    icon = c.get_media(img_server.url("/article"), kind="icon", width=30)
    assert (thumb["width"], icon["width"]) == (30, 30)
    assert (img_server.hits("/article"), img_server.hits("/wide.png"), img_server.hits("/icons.ico")) == hits


def test_prefetch_cancel(daemon, img_server):
    c = daemon()
    key = f"warm-{os.getpid()}-{time.monotonic_ns()}"
    urls = [img_server.url(f"/held?key={key}&n={i}") for i in range(8)]
    fut = c.prefetch_async(urls, provider_id="warm")
    assert img_server.wait_in_flight(key, 1, 20), "the prefetch never asked for a page"
    assert c.cancel("warm") == {"cancelled": True}
    # Answered by the cancel: every page is held at the server, never released.
    with pytest.raises(LinkPeekError) as err:
        fut.result(timeout=10)
    assert err.value.code == -32800
    with pytest.raises(LinkPeekError) as err:
        c.prefetch([])
    assert (err.value.code, err.value.message) == (-32602, "urls must hold 1 to 1000 URLs")


def stored_image_keys(cache_home) -> set[str]:
    """The image blobs in the cache database under `cache_home` (read-only; the daemon may be writing)."""
    import sqlite3
    path = cache_home / "linkpeek" / "cache.sqlite"
    if not path.exists():
        return set()
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return {row[0] for row in db.execute("SELECT key FROM blob WHERE key LIKE 'image:%'")}
    except sqlite3.OperationalError:
        return set()
    finally:
        db.close()


def test_sources_and_variants_survive_a_restart(daemon, img_server, private_cache_home):
    """The image cache's second level is the persistent cache: after a restart, the same variant and a
    new size of the same source come from disk, with no request to the server."""
    first = daemon()
    image = img_server.url("/wide.png")
    made = first.get_media(image, width=80)
    # Blobs are written behind the answer: wait (bounded) until both are on disk.
    deadline = time.monotonic() + 10
    while len(stored_image_keys(private_cache_home)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    keys = stored_image_keys(private_cache_home)
    assert any(k.startswith("image:source ") for k in keys) and any(k.startswith("image:variant ") for k in keys), keys
    first.close(timeout=10)
    hits = img_server.hits("/wide.png")
    second = daemon()
    assert second.get_media(image, width=80) == made
    other = second.get_media(image, width=40, format="jpeg")
    assert (other["width"], other["type"]) == (40, "image/jpeg")
    assert img_server.hits("/wide.png") == hits, "the restarted daemon fetched the source again"
