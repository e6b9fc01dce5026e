"""Instructions per page of `linkpeek fetch --stdin` (default cache, gzip
pages from nginx), counted by callgrind: a figure the machine's load does
not move (bench_fetch.py's CPU times do), and where they go.

    python3 Benchmarks/callgrind_fetch.py --bin BASE --bin TRIAL [--pages 200] [--set issue] [--top 0]

nginx serves the set as bench_fetch.py does (`gen_pages.py --set`, HTML
gzip-encoded but under /plain/); each binary fetches the first `--pages`
pages once at concurrency 1 under `valgrind --tool=callgrind` (every
thread), into a fresh cache, and the same binary fetches nothing once for
its start-up. Printed per binary: instructions per page without the
start-up, then the inclusive instructions per page of the components
below (a function's own and its callees', so the rows overlap). `--top N`
also prints the N functions of most instructions of their own.

Needs valgrind, cc, strip, nginx (and `callgrind_annotate`).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "Tests" / "integration"))

import gen_pages  # noqa: E402
import nginx_server  # noqa: E402
from valgrind_ready import runnable_copy, shim_environment  # noqa: E402

# (row, pattern of the function's symbol): inclusive costs read from
# `callgrind_annotate --inclusive=yes`, the first matching line of each.
COMPONENTS = [
    ("page bytes from curl into the consumer", r"PageConsumerC8receivedy4Curl16TransferDecisionOSWF \["),
    ("  head scanner (libxml2 and its callbacks)", r"HeadScannerC4feedyySWF \["),
    ("    libxml2 htmlParseChunk", r"htmlParseChunk \["),
    ("  held body: copy and byte search", r"PageConsumerC4hold_7scanner"),
    ("    BodyEvidence.search", r"BodyEvidenceV6searchySbSays5UInt8VGF \["),
    ("  declared fields (head stop rule)", r"PageConsumerC13afterScanning4Curl16TransferDecisionOyF \["),
    ("zlib inflate", r"\?\?\?:inflate \["),
    ("  crc32", r"\?\?\?:crc32 \["),
    ("rules: MetadataRules.extract", r"08MetadataA0O7extract4from7pageURL15contentLanguage"),
    ("wall detector", r"WallDetectorO6detectyAA0C0OSgAC8ResponseV"),
    ("cache entry's JSON (ServedJSON.bytes)", r"ServedJSONC5bytesSays5UInt8VGSgvg \["),
    ("cache write (SQLite, write queue)", r"CacheStoreC5flushyyF \["),
    ("coalescer (shared flights)", r"CoalescerC4join"),
]


def count(binary: str, urls: list[str], tmp: Path, env: dict, name: str) -> tuple[int, Path]:
    out = tmp / f"callgrind.{name}.out"
    cache = tmp / f"cache-{name}"
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "fetch", "--stdin",
           "--concurrency", "1", "--no-subresources", "--allow-private-network", "--cache-dir", str(cache)]
    run = subprocess.run(cmd, input=("\n".join(urls) + "\n").encode() if urls else b"", env=env,
                         capture_output=True, timeout=3600)
    total = re.findall(rb"Collected : (\d+)", run.stderr)
    if not total:
        sys.exit(f"callgrind failed for {binary}: {run.stderr[-2000:].decode(errors='replace')}")
    return int(total[-1]), out


def annotate(out: Path, inclusive: bool) -> list[str]:
    args = ["callgrind_annotate", "--threshold=100"] + (["--inclusive=yes"] if inclusive else []) + [str(out)]
    return subprocess.run(args, capture_output=True, text=True, timeout=600).stdout.splitlines()


def cost(lines: list[str], pattern: str) -> int | None:
    rx = re.compile(pattern)
    for line in lines:
        if rx.search(line):
            return int(line.split()[0].replace(",", ""))
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", action="append", required=True, help="a linkpeek binary (repeat to compare)")
    ap.add_argument("--pages", type=int, default=200)
    ap.add_argument("--set", default="issue", choices=sorted(gen_pages.SHAPES))
    ap.add_argument("--top", type=int, default=0, help="also print the N functions of most own instructions")
    args = ap.parse_args()
    if nginx_server.available():
        sys.exit(nginx_server.available())
    pages = gen_pages.generate(500, shape=args.set)
    block = gen_pages.shared_block()
    with tempfile.TemporaryDirectory(prefix="callgrind-fetch-") as tmpdir, \
            nginx_server.nginx_serving(pages, block, "127.0.0.1", gzip_html=True) as served:
        tmp = Path(tmpdir)
        env = shim_environment(tmpdir)
        urls = [served.base_url + p.path for p in pages[:args.pages]]
        rows: dict[str, list[str]] = {}
        totals = []
        for i, binary in enumerate(args.bin):
            copy = runnable_copy(binary, str(tmp / f"linkpeek-{i}"))
            start, _ = count(copy, [], tmp, env, f"{i}-start")
            total, out = count(copy, urls, tmp, env, str(i))
            per_page = (total - start) / len(urls)
            totals.append(per_page)
            print(f"{binary}: {total:,} instructions, start-up {start:,}; "
                  f"{per_page / 1e6:.3f} M per page without the start-up ({len(urls)} pages)")
            inclusive = annotate(out, True)
            for name, pattern in COMPONENTS:
                c = cost(inclusive, pattern)
                rows.setdefault(name, []).append("-" if c is None else f"{c / len(urls) / 1e6:.3f}")
            if args.top:
                own = [line for line in annotate(out, False) if re.match(r"\s*[\d,]+ \(", line)][1:args.top + 1]
                print("\n".join("  " + line[:160] for line in own))
        print()
        print("| M instructions per page (inclusive) | " + " | ".join(Path(b).name for b in args.bin) + " |")
        print("| --- |" + " --- |" * len(args.bin))
        print("| whole process, start-up excluded | " + " | ".join(f"{t / 1e6:.3f}" for t in totals) + " |")
        for name, values in rows.items():
            print(f"| {name} | " + " | ".join(values) + " |")
        if len(totals) > 1:
            print("\n" + ", ".join(f"{Path(b).name} ÷ {Path(args.bin[0]).name}: {t / totals[0]:.3f}"
                                   for b, t in zip(args.bin[1:], totals[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
