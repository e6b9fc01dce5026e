"""Images: linkpeek's thumbnails side by side with vipsthumbnail and ImageMagick, and the daemon's image figures.

    LINKPEEK_BIN=.build/release/linkpeek python3 Benchmarks/bench_images.py [--rounds 11]

Needs the `vips` and `vipsthumbnail` commands (libvips-tools) and ImageMagick's
`convert` (package imagemagick; `make bench` installs both). The images are
generated here. Measured, in one run:

 1. A 4000x3000 JPEG thumbnailed to 320 px wide, the whole process each time,
    the commands in turn, their order rotated each round (so each is first,
    second, ... equally often):
      linkpeek image URL --width 320 --no-cache -o out.jpg  (the JPEG served on
          loopback; --no-cache: every run decodes, as a first run does, rather
          than answering from the persistent cache an earlier run filled)
      vipsthumbnail FILE -s 320x -o out.jpg          (the floor: the same library)
      VIPSHOME=/dev/null vipsthumbnail ...           (the same without libvips's
          modules, which linkpeek does not load: the floor linkpeek can reach)
      convert FILE -thumbnail 320x out.jpg           (ImageMagick)
    Each ratio is the median of the per-round ratios (pairs from one round
    share the machine's state), with the spread of the middle half, for CPU
    time (user + system, the child's own, from wait4) and wall time. The
    verdicts use CPU time: on a shared 2-core machine with builds running,
    wall time is mostly waiting for a core (twice the CPU time, and a middle
    half from 0.8x to 1.3x for the same two commands), so a verdict on it
    flips from run to run; CPU time is the work each command does. Targets:
    linkpeek <= 1.3x vipsthumbnail's time; >= 3x faster than convert (also
    given for the module-less vipsthumbnail: what a one-shot process on this
    libvips can reach at best).
 2. Peak RSS growth of the daemon for a 50-megapixel JPEG source (VmHWM after
    the request minus VmRSS before it, libvips already loaded) - target <= 60 MB.
 3. A cached variant over the pipe: `getMedia` repeated with one request
    outstanding, p50/p99 - target p99 < 2 ms.
 4. An SVG logo to a 512 px PNG: `getMedia` of the logo as a data: URL
    (rendered each time: data: URLs are not cached, and no fetch is timed),
    median - target < 20 ms.
 5. For context: the same 4000x3000 JPEG thumbnailed inside a warm daemon
    (its source kept, a new width each time: decode, resize, encode only), and
    `linkpeek image` on a 16x16 PNG (the whole-process floor: start-up,
    libvips's initialisation, a loopback fetch).
 6. For context: `linkpeek image` as a user runs it the first time, without
    --no-cache, with a new cache directory (the cache made, the source and
    the variant written to it).
It builds nothing; it prints a table and whether each target was met.
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "Tests" / "integration"))
sys.path.insert(0, str(REPO / "protocol" / "python"))

from linkpeek_client import LinkPeekClient  # noqa: E402
from background_server import BackgroundServer  # noqa: E402
from procinfo import vm_hwm_kb  # noqa: E402

LOGO = b"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 80">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f05138"/>
<stop offset="1" stop-color="#fa7343"/></linearGradient></defs>
<rect x="4" y="4" width="72" height="72" rx="16" fill="url(#g)"/>
<path d="M58 50c-6 4-15 5-24 1-8-4-14-10-18-17 7 6 16 11 24 11-6-5-12-12-16-19 7 6 17 13 24 16-3-6-7-12-10-17
 9 9 16 20 18 25 3 0 6 1 8 4 0-3-2-6-6-4z" fill="#fff"/>
<g fill="#333"><rect x="92" y="22" width="12" height="36" rx="2"/><circle cx="120" cy="40" r="18"/>
<path d="M150 22h14l10 22 10-22h14l-18 36h-12z"/><rect x="204" y="22" width="28" height="10" rx="3"/>
<rect x="204" y="36" width="22" height="9" rx="3"/><rect x="204" y="49" width="28" height="9" rx="3"/></g>
</svg>"""


def vips(*args):
    subprocess.run(["vips", *args], check=True, capture_output=True, timeout=300)


def photo(tmp: Path, name: str, width: int, height: int, blur: float, quality: int) -> Path:
    """A photo-like JPEG: blurred noise (libvips decodes it as it would a photo)."""
    noise, blurred, cast = (tmp / f"{name}-{step}.v" for step in ("noise", "blur", "cast"))
    vips("gaussnoise", str(noise), str(width), str(height), "--sigma", "60", "--mean", "128")
    vips("gaussblur", str(noise), str(blurred), str(blur))
    vips("cast", str(blurred), str(cast), "uchar")
    out = tmp / f"{name}.jpg"
    vips("bandjoin", f"{cast} {cast} {cast}", str(tmp / f"{name}-rgb.v"))
    vips("copy", str(tmp / f"{name}-rgb.v"), f"{out}[Q={quality}]")
    for step in (noise, blurred, cast, tmp / f"{name}-rgb.v"):
        step.unlink()
    return out


def imagemagick() -> str | None:
    """ImageMagick's convert; not a stand-in earlier on PATH that only looks like it."""
    for candidate in ("/usr/bin/convert-im6.q16", "/usr/bin/convert", shutil.which("convert")):
        if candidate and os.access(candidate, os.X_OK):
            out = subprocess.run([candidate, "-version"], capture_output=True, text=True).stdout
            if "ImageMagick" in out:
                return candidate
    return None


class FileServer(BackgroundServer):
    """The images as files over loopback HTTP/1.0 (one response per
    connection, written at once: a keep-alive server that writes headers
    and body apart adds delayed-ACK waits that are the server's, not ours)."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    def __init__(self, directory: Path):
        handler = functools.partial(self.Handler, directory=str(directory))
        super().__init__(http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler), join_timeout=5)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"


def timed(cmd: list) -> float:
    return timed_run(cmd)[0]


def timed_run(cmd: list, env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the child's own, from wait4)."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    if process.returncode != 0:
        sys.exit(f"{cmd[0]} failed (exit {process.returncode}): {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime


def paired(top: list, bottom: list) -> tuple[float, float, float]:
    """Median of the per-round ratios top/bottom, and the middle half's bounds."""
    ratios = sorted(a / b for a, b in zip(top, bottom))
    return statistics.median(ratios), percentile(ratios, 0.25), percentile(ratios, 0.75)


def vm_rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values: list, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--latency", type=int, default=2000, help="cached getMedia requests timed")
    ap.add_argument("--svg", type=int, default=50, help="SVG renders timed")
    args = ap.parse_args()
    binary = os.environ.get("LINKPEEK_BIN") or str(REPO / ".build" / "release" / "linkpeek")
    convert = imagemagick()
    for tool in ("vips", "vipsthumbnail"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install libvips-tools")

    rows, verdicts = [], []
    with tempfile.TemporaryDirectory() as tmpdir, FileServer(Path(tmpdir)) as server:
        tmp = Path(tmpdir)
        big = photo(tmp, "big", 4000, 3000, 1.5, 85)
        huge = photo(tmp, "huge", 8660, 5773, 6, 80)
        vips("black", str(tmp / "tiny.v"), "16", "16")
        vips("copy", str(tmp / "tiny.v"), str(tmp / "tiny.png"))
        print(f"sources: {big.name} 4000x3000 {big.stat().st_size / 1e6:.1f} MB, "
              f"{huge.name} 8660x5773 {huge.stat().st_size / 1e6:.1f} MB")

        # 1. Whole-process thumbnails, side by side.
        commands = {
            "linkpeek": [binary, "image", "--allow-private-network", "--no-cache", server.url("/big.jpg"),
                         "--width", "320", "-o", str(tmp / "lp.jpg")],
            "vipsthumbnail": ["vipsthumbnail", str(big), "-s", "320x", "-o", str(tmp / "vt.jpg")],
            "vipsthumbnail, no modules": ["vipsthumbnail", str(big), "-s", "320x", "-o", str(tmp / "vn.jpg")],
        }
        # libvips finds its modules under $VIPSHOME; /dev/null holds none (as linkpeek sets it).
        envs = {"vipsthumbnail, no modules": {**os.environ, "VIPSHOME": "/dev/null"}}
        if convert:
            commands["convert"] = [convert, str(big), "-thumbnail", "320x", str(tmp / "im.jpg")]
        walls = {name: [] for name in commands}
        cpus = {name: [] for name in commands}
        for name, cmd in commands.items():
            timed_run(cmd, envs.get(name))  # warm the page cache and the loader
        names = list(commands)
        for r in range(args.rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            for name in order:
                wall, cpu = timed_run(commands[name], envs.get(name))
                walls[name].append(wall)
                cpus[name].append(cpu)
        for name in names:
            rows.append((f"4000x3000 JPEG -> 320 px, {name}, CPU / wall",
                         f"{statistics.median(cpus[name]) * 1000:.0f} / {statistics.median(walls[name]) * 1000:.0f} ms",
                         ""))

        def ratio_row(label, top, bottom, target=""):
            cpu = paired(cpus[top], cpus[bottom])
            wall = paired(walls[top], walls[bottom])
            rows.append((f"  {label}, CPU (middle half) / wall (middle half)",
                         f"{cpu[0]:.2f}x ({cpu[1]:.2f}-{cpu[2]:.2f}) / {wall[0]:.2f}x ({wall[1]:.2f}-{wall[2]:.2f})",
                         target))
            return cpu[0]

        verdicts.append(ratio_row("linkpeek / vipsthumbnail", "linkpeek", "vipsthumbnail", "<= 1.3x") <= 1.3)
        ratio_row("linkpeek / vipsthumbnail without modules", "linkpeek", "vipsthumbnail, no modules")
        if convert:
            verdicts.append(ratio_row("convert / linkpeek", "convert", "linkpeek", ">= 3x") >= 3)
            ratio_row("convert / vipsthumbnail without modules (the floor)", "convert", "vipsthumbnail, no modules")
        else:
            rows.append(("  convert", "not installed", ">= 3x"))

        with LinkPeekClient(binary, args=["--allow-private-network"], timeout=60) as lp:
            # 2. Peak RSS growth for a 50-megapixel source.
            lp.get_media(server.url("/big.jpg"), width=64)        # libvips loaded, pools warm
            before = vm_rss_kb(lp.pid)
            result = lp.get_media(server.url("/huge.jpg"), width=320)
            growth = (vm_hwm_kb(lp.pid) - before) / 1024
            rows.append(("50 MP JPEG -> 320 px, daemon peak RSS growth", f"{growth:.1f} MB", "<= 60 MB"))
            verdicts.append(growth <= 60 and result["width"] == 320)

            # 3. A cached variant over the pipe.
            lp.get_media(server.url("/big.jpg"), width=320)
            latencies = []
            for _ in range(args.latency):
                start = time.perf_counter()
                lp.get_media(server.url("/big.jpg"), width=320)
                latencies.append((time.perf_counter() - start) * 1000)
            p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
            rows.append(("cached 320 px variant over the pipe, p50 / p99", f"{p50:.2f} / {p99:.2f} ms", "p99 < 2 ms"))
            verdicts.append(p99 < 2)

            # 4. SVG logo -> 512 px PNG, rendered each time.
            logo = "data:image/svg+xml;base64," + base64.b64encode(LOGO).decode()
            lp.get_media(logo, width=512, format="png")
            renders = []
            for _ in range(args.svg):
                start = time.perf_counter()
                out = lp.get_media(logo, width=512, format="png")
                renders.append((time.perf_counter() - start) * 1000)
            assert (out["width"], out["height"]) == (512, 171), out
            rows.append(("SVG logo -> 512 px PNG, median", f"{statistics.median(renders):.1f} ms", "< 20 ms"))
            verdicts.append(statistics.median(renders) < 20)

            # 5. Context: the thumbnail inside a warm daemon, from the kept source.
            warm = []
            for i in range(args.rounds):
                start = time.perf_counter()
                lp.get_media(server.url("/big.jpg"), width=300 + i)
                warm.append((time.perf_counter() - start) * 1000)
            rows.append(("4000x3000 JPEG -> ~320 px in a warm daemon, median", f"{statistics.median(warm):.0f} ms",
                         "(context)"))

        floor = [timed([binary, "image", "--allow-private-network", "--no-cache", server.url("/tiny.png"), "--width", "16",
                        "-o", str(tmp / "tiny-out.png")]) for _ in range(args.rounds)]
        rows.append(("linkpeek image, 16x16 PNG (whole-process floor), median",
                     f"{statistics.median(floor) * 1000:.0f} ms", "(context)"))

        # 6. The default run (no --no-cache) the first time: the persistent
        # cache is opened (made, here: a new directory each run) and the
        # source and the variant are written to it.
        cold = []
        for r in range(args.rounds):
            cache = tmp / f"cache-{r}"
            cold.append(timed_run([binary, "image", "--allow-private-network", "--cache-dir", str(cache),
                                   server.url("/big.jpg"), "--width", "320", "-o", str(tmp / "cold.jpg")]))
            shutil.rmtree(cache, ignore_errors=True)
        rows.append(("linkpeek image 4000x3000 JPEG, default, new cache directory, CPU / wall",
                     f"{statistics.median(c for _, c in cold) * 1000:.0f} / "
                     f"{statistics.median(w for w, _ in cold) * 1000:.0f} ms", "(context)"))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  {'figure':>16}  target")
    for name, figure, target in rows:
        print(f"{name.ljust(width)}  {figure:>16}  {target}")
    print("targets met" if all(verdicts) else "some targets missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
