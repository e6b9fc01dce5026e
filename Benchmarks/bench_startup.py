"""Binary size and start-up time of linkpeek builds, side by side.

    python3 Benchmarks/bench_startup.py --bin OLD --bin NEW [--runs 200]
    python3 Benchmarks/bench_startup.py --bin BIN --config EMPTY.toml --config RULES.toml
    python3 Benchmarks/bench_startup.py --bin BIN --rules 200
    python3 Benchmarks/bench_startup.py --bin OLD --bin NEW --rules 200 --callgrind

With `--callgrind` (and files), each binary runs once per file under
valgrind's callgrind instead, and the instructions it executed are printed,
with each file's excess over the first: a count that does not depend on
the machine's load. valgrind cannot read the release binary's debug
information, and rewrites the signal mask libdispatch hands `sigsuspend`,
which lies in read-only memory; so each binary runs as a copy without
debug information (`strip --strip-debug`), with a `sigsuspend` that
passes a copy of the mask (built with `cc` and preloaded).

With `--config` (repeatable), each binary runs `linkpeek config show
--config FILE` once per file instead of `--version`: what reading a
configuration file adds to a start (`config show` reads it as `fetch` and
`serve` do, and stops). Each file is run twice over, `cold` and `warm`:
builds that keep the parsed file under the cache directory
(`$XDG_CACHE_HOME/linkpeek/config-*.cache`) read it from there when the
file has not changed. `cold` empties that directory before every run (a
first start, or one after the file changed: it parses the file and writes
the cache), `warm` keeps it (what every later start costs). Each binary
gets its own `XDG_CACHE_HOME`s under the temporary directory (the warm
one filled by a first, untimed run); for a build without the cache the
two are the same thing. `--rules N` writes an empty file and one of N
`[[site]]` rules of 9 keys each (`rules_text`) to a temporary directory
and compares those two. With files it also prints each run's CPU (user +
system) at p50: on a busy machine the wall time is mostly the wait for a
core, the CPU what the process itself spent.

For each binary: the size of the file, plus any `libLinkPeekCacheStore.so`
beside it (older builds, from before the cache moved into the executable,
needed it), the toolchain libraries `ldd` names, and the wall time of the
whole process `linkpeek --version` (spawn to exit), median and p90 over
`--runs` runs, the binaries taking turns.
"""

from __future__ import annotations

import argparse
import atexit
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from valgrind_ready import runnable_copy, shim_environment


def rules_text(count: int) -> str:
    """`count` `[[site]]` rules, each with 9 keys of the kinds users write."""
    rules = []
    for n in range(count):
        rules.append(f"""[[site]]
match = ["host{n}.example.com", "*.host{n}.example.org/docs"]
userAgent = "agent-{n}/1.0 (+https://example.net/bot)"
headers = {{ "X-Rule" = "r{n}", "X-Team" = "team-{n % 7}" }}
acceptLanguage = "en-GB,en;q=0.8"
timeout = {5 + n % 20}
minTTL = 60
maxTTL = {3600 + n}
failureTTL = {{ notFound = 600, timedOut = 60, serverError = 60 }}
fetch = "{("always", "cacheOnly", "never")[n % 3]}"
""")
    return "\n".join(rules)


TEMPERATURES = ("cold", "warm")


def cache_home(directory: str, number: int, temperature: str) -> str:
    """The `XDG_CACHE_HOME` of binary `number`'s cold or warm runs."""
    return os.path.join(directory, f"cache-{number}-{temperature}")


def prepare(home: str, temperature: str) -> None:
    """Before a run: a cold one finds no cache directory at all."""
    if temperature == "cold":
        shutil.rmtree(home, ignore_errors=True)


def callgrind(binaries: list[str], configs: list[str], directory: str) -> int:
    """Instructions executed by `config show --config FILE`, per binary, file and temperature, under callgrind."""
    environment = shim_environment(directory)
    print(f"{'binary, file and start':<66} {'instructions':>14} {'over the first file':>20}")
    for number, binary in enumerate(binaries):
        copy = runnable_copy(binary, os.path.join(directory, f"linkpeek-{number}"))
        first: dict[str, int] = {}
        for config in configs:
            for temperature in TEMPERATURES:
                home = cache_home(directory, number, "cold")  # the warm run finds what the cold one wrote
                prepare(home, temperature)
                out = os.path.join(directory, "callgrind.out")
                done = subprocess.run(
                    ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", copy, "config", "show", "--config", config],
                    capture_output=True, text=True, timeout=600, env={**environment, "XDG_CACHE_HOME": home})
                collected = [line for line in done.stderr.splitlines() if "Collected :" in line]
                if done.returncode != 0 or not collected:
                    print(done.stderr[-2000:], file=sys.stderr)
                    return 1
                count = int(collected[-1].split(":")[-1].strip())
                first.setdefault(temperature, count)
                label = f"{binary} {config} {temperature}"
                print(f"{label[-66:]:<66} {count:14,} {count - first[temperature]:20,}")
    return 0


def children_cpu() -> float:
    """User + system seconds of the children waited for so far (the runs go one at a time)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
    ap.add_argument("--config", action="append", default=[])
    ap.add_argument("--rules", type=int, help="compare an empty file with one of this many [[site]] rules")
    ap.add_argument("--callgrind", action="store_true", help="count instructions under valgrind (needs files)")
    args = ap.parse_args()
    directory = tempfile.mkdtemp(prefix="linkpeek-bench-")
    atexit.register(shutil.rmtree, directory, True)
    if args.rules is not None:
        for name, text in (("empty.toml", ""), (f"rules{args.rules}.toml", rules_text(args.rules))):
            with open(os.path.join(directory, name), "w") as out:
                out.write(text)
            args.config.append(os.path.join(directory, name))
    if args.callgrind:
        if not args.config:
            ap.error("--callgrind needs --config or --rules")
        return callgrind(args.bin, args.config, directory)
    # label -> (argv, XDG_CACHE_HOME, temperature)
    runs: dict[str, tuple[list[str], str, str]] = {}
    if args.config:
        for number, b in enumerate(args.bin):
            for c in args.config:
                for temperature in TEMPERATURES:
                    runs[f"{b} {c} {temperature}"] = (
                        [b, "config", "show", "--config", c], cache_home(directory, number, temperature), temperature)
    else:
        runs = {b: ([b, "--version"], cache_home(directory, number, "warm"), "warm") for number, b in enumerate(args.bin)}
    times: dict[str, list[float]] = {label: [] for label in runs}
    cpus: dict[str, list[float]] = {label: [] for label in runs}
    for argv, home, _ in runs.values():  # warm the page cache
        subprocess.run(argv, capture_output=True, timeout=60, check=True, env={**os.environ, "XDG_CACHE_HOME": home})
    for _ in range(args.runs):
        for label, (argv, home, temperature) in runs.items():
            prepare(home, temperature)
            environment = {**os.environ, "XDG_CACHE_HOME": home}
            cpu = children_cpu()
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, timeout=60, check=True, env=environment)
            times[label].append((time.perf_counter() - start) * 1000)
            cpus[label].append((children_cpu() - cpu) * 1000)
    if args.config:
        print(f"{'binary, file and start':<66} {'p50 / p90 ms':>16} {'CPU p50 ms':>11}")
        for label in runs:
            ordered = sorted(times[label])
            print(f"{label[-66:]:<66} {statistics.median(ordered):8.2f} / {ordered[int(len(ordered) * 0.9)]:.2f} "
                  f"{statistics.median(cpus[label]):11.2f}")
        return 0
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
