"""Binary size and start-up time of linkpeek builds, side by side.

    python3 Benchmarks/bench_startup.py --bin OLD --bin NEW [--runs 200]

For each binary: the size of the file, plus any `libLinkPeekCacheStore.so`
beside it (older builds, from before the cache moved into the executable,
needed it), the toolchain libraries `ldd` names, and the wall time of the
whole process `linkpeek --version` (spawn to exit), median and p90 over
`--runs` runs, the binaries taking turns.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def size_of(binary: str) -> tuple[int, int]:
    library = os.path.join(os.path.dirname(binary), "libLinkPeekCacheStore.so")
    return os.path.getsize(binary), os.path.getsize(library) if os.path.exists(library) else 0


def toolchain_libraries(binary: str) -> int:
    out = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=60).stdout
    return sum(1 for line in out.splitlines() if "=>" in line and not line.split("=>")[1].strip().startswith(("/lib/", "/usr/lib/")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", action="append", required=True)
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    times: dict[str, list[float]] = {binary: [] for binary in args.bin}
    for binary in args.bin:  # warm the page cache
        subprocess.run([binary, "--version"], capture_output=True, timeout=60, check=True)
    for _ in range(args.runs):
        for binary in args.bin:
            start = time.perf_counter()
            subprocess.run([binary, "--version"], capture_output=True, timeout=60, check=True)
            times[binary].append((time.perf_counter() - start) * 1000)
    print(f"{'binary':<44} {'file MB':>8} {'+ cache lib MB':>15} {'toolchain libs':>15} {'--version p50 / p90 ms':>24}")
    for binary in args.bin:
        own, library = size_of(binary)
        ordered = sorted(times[binary])
        p90 = ordered[int(len(ordered) * 0.9)]
        print(f"{binary[-44:]:<44} {own / 1e6:8.1f} {library / 1e6:15.1f} {toolchain_libraries(binary):15d} "
              f"{statistics.median(ordered):12.2f} / {p90:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
