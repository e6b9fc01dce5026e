"""Image fixtures for the image tests, generated here (never downloaded).

Raster images are written as PPM/PAM-free raw pixels by Python and converted
with the `vips` command (package libvips-tools); the odd ones (EXIF segment,
pixel bomb, ICO, animated GIF, hostile SVGs) are assembled byte by byte.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

from fixture_server import gif_bytes, png_bytes


def have_vips() -> bool:
    return shutil.which("vips") is not None


def vips(*args: str) -> None:
    subprocess.run(["vips", *args], check=True, capture_output=True, timeout=60)


def ppm(width: int, height: int, pixel) -> bytes:
    """A binary PPM whose pixel (x, y) is pixel(x, y) -> (r, g, b)."""
    rows = bytearray()
    for y in range(height):
        for x in range(width):
            rows += bytes(pixel(x, y))
    return f"P6 {width} {height} 255\n".encode() + bytes(rows)


def convert(tmp: Path, name: str, data: bytes, suffix: str) -> bytes:
    """`data` (a PPM) converted by vips to the format `suffix` names (".jpg[Q=90]")."""
    src = tmp / f"{name}.ppm"
    src.write_bytes(data)
    out = tmp / f"{name}{suffix.split('[')[0]}"
    vips("copy", str(src), str(tmp / f"{name}{suffix}"))
    return out.read_bytes()


def marked(width: int, height: int, mark: int):
    """Black, with a white mark x mark square in the stored top-left corner."""
    return lambda x, y: (255, 255, 255) if x < mark and y < mark else (0, 0, 0)


# ---------------------------------------------------------------- EXIF

def exif_segment(orientation: int, gps: bool = True) -> bytes:
    """An APP1 Exif segment (big-endian TIFF): IFD0 with Orientation and a
    GPS IFD pointer; the GPS IFD with a latitude of 48° 51' 29.88" N."""
    entries0 = [(0x0112, 3, 1, struct.pack(">HH", orientation, 0))]
    ifd0_offset = 8
    ifd0_size = 2 + 12 * (len(entries0) + (1 if gps else 0)) + 4
    gps_offset = ifd0_offset + ifd0_size
    if gps:
        entries0.append((0x8825, 4, 1, struct.pack(">I", gps_offset)))
    tiff = b"MM\x00\x2a" + struct.pack(">I", ifd0_offset)
    tiff += struct.pack(">H", len(entries0))
    for tag, typ, count, value in entries0:
        tiff += struct.pack(">HHI", tag, typ, count) + value
    tiff += struct.pack(">I", 0)
    if gps:
        rationals_offset = gps_offset + 2 + 12 * 2 + 4
        tiff += struct.pack(">H", 2)
        tiff += struct.pack(">HHI", 0x0001, 2, 2) + b"N\x00\x00\x00"             # GPSLatitudeRef
        tiff += struct.pack(">HHII", 0x0002, 5, 3, rationals_offset)            # GPSLatitude
        tiff += struct.pack(">I", 0)
        tiff += struct.pack(">IIIIII", 48, 1, 51, 1, 2988, 100)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def with_exif(jpeg: bytes, orientation: int) -> bytes:
    """`jpeg` with an Exif segment right after SOI."""
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + exif_segment(orientation) + jpeg[2:]


# ---------------------------------------------------------------- PNG, ICO, GIF

def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def rgba_png(width: int, height: int, pixel) -> bytes:
    """An RGBA PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b, a)."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw += bytes(pixel(x, y))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _chunk(b"IEND", b""))


def pixel_bomb_png(side: int = 100_000) -> bytes:
    """A PNG declaring side x side pixels (greyscale) with a few bytes of data."""
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(b"\x00" * 1024)) + _chunk(b"IEND", b""))


def dib_bgra(size: int, bgra) -> bytes:
    """A 32-bit icon DIB (BITMAPINFOHEADER, bottom-up rows, then the AND mask)."""
    header = struct.pack("<IiiHHIIiiII", 40, size, size * 2, 1, 32, 0, 0, 0, 0, 0, 0)
    rows = bytearray()
    for y in range(size - 1, -1, -1):
        for x in range(size):
            rows += bytes(bgra(x, y))
    mask = b"\x00" * (((size + 31) // 32) * 4 * size)
    return header + bytes(rows) + mask


def bmp24(width: int, height: int, rgb) -> bytes:
    """A 24-bit BMP file (bottom-up rows, each padded to 4 bytes)."""
    row_bytes = (width * 3 + 3) // 4 * 4
    pixels = bytearray()
    for y in range(height - 1, -1, -1):
        row = bytearray()
        for x in range(width):
            r, g, b = rgb(x, y)
            row += bytes((b, g, r))
        pixels += row + b"\x00" * (row_bytes - len(row))
    header = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 40 + len(pixels), 0, 0, 14 + 40) + header + bytes(pixels)


def ico(entries: list[tuple[int, bytes]]) -> bytes:
    """An ICO of (size, image bytes) entries, PNG or DIB."""
    out = struct.pack("<HHH", 0, 1, len(entries))
    offset = 6 + 16 * len(entries)
    directory, data = b"", b""
    for size, image in entries:
        directory += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset + len(data))
        data += image
    return out + directory + data


def animated_gif(width: int, height: int, frames: int = 3) -> bytes:
    """A looping GIF of `frames` frames (each frame the fixture server's one-colour frame)."""
    one = gif_bytes(width, height)
    header, rest = one[:13 + 12], one[13 + 12:-1]   # header + 4-colour palette; then the image block
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    control = b"\x21\xf9\x04\x00\x0a\x00\x00\x00"
    return header + loop + (control + rest) * frames + b"\x3b"


# ---------------------------------------------------------------- SVG

def svg_logo(view_box: bool = True) -> bytes:
    size = 'viewBox="0 0 100 50"' if view_box else 'width="100" height="50"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" {size}>'
            '<rect width="100" height="50" fill="#ff0000"/><circle cx="50" cy="25" r="20" fill="#0000ff"/></svg>').encode()


def svg_external(base: str, file_path: str) -> bytes:
    """An SVG that names external resources every way librsvg knows: each
    would paint the whole image if it were loaded (the background is white)."""
    return f"""<?xml version="1.0"?>
<?xml-stylesheet type="text/css" href="{base}/ext/pi.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
<style>@import url("{base}/ext/import.css"); rect.a {{ fill: url({base}/ext/paint.svg#g); }}</style>
<rect width="100" height="100" fill="#ffffff"/>
<image href="{base}/ext/href.png" x="0" y="0" width="100" height="100"/>
<image xlink:href="{base}/ext/xlink.png" x="0" y="0" width="100" height="100"/>
<image href="file://{file_path}" x="0" y="0" width="100" height="100"/>
<image href="{file_path}" x="0" y="0" width="100" height="100"/>
<use xlink:href="{base}/ext/use.svg#shape"/>
<rect class="a" width="10" height="10" style="fill: url('{base}/ext/style.svg#g')"/>
</svg>""".encode()


def svg_xxe(file_path: str) -> bytes:
    return f"""<?xml version="1.0"?>
<!DOCTYPE svg [ <!ENTITY xxe SYSTEM "file://{file_path}"> ]>
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><text y="15">&xxe;</text></svg>""".encode()
