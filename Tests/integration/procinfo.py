"""What the kernel says about a process, for the tests and the benchmarks."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass


def _status_kb(pid: int, field: str) -> int:
    """A `/proc/PID/status` figure in KB, 0 if the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def vm_hwm_kb(pid: int) -> int:
    """The process's peak resident set in KB (VmHWM), 0 if it is gone.

    wait4's ru_maxrss would not do: on Linux a child forked from this Python
    process starts with the parent's high-water mark."""
    return _status_kb(pid, "VmHWM")


def vm_rss_kb(pid: int) -> int:
    """The process's resident set now, in KB (VmRSS), 0 if it is gone."""
    return _status_kb(pid, "VmRSS")


@dataclass
class Measured:
    returncode: int
    stdout: bytes
    stderr: bytes
    seconds: float
    peak_rss_kb: int
    timed_out: bool


def run_measured(cmd: list, stdin: bytes | None = None, timeout: float = 60.0,
                 poll: float = 0.005) -> Measured:
    """Runs `cmd` to the end, feeding `stdin` and collecting both outputs,
    while reading its peak RSS every `poll` seconds. A child still running
    after `timeout` is killed, by its own pid only."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    bufs: dict[str, list] = {"out": [], "err": []}

    def drain(stream, key):
        for chunk in iter(lambda: stream.read(65536), b""):
            bufs[key].append(chunk)

    def feed():
        try:
            if stdin:
                p.stdin.write(stdin)
            p.stdin.close()
        except OSError:
            pass

    threads = [threading.Thread(target=drain, args=(p.stdout, "out"), daemon=True),
               threading.Thread(target=drain, args=(p.stderr, "err"), daemon=True)]
    for t in threads:
        t.start()
    threading.Thread(target=feed, daemon=True).start()
    timed_out, peak = False, 0
    while True:
        peak = max(peak, vm_hwm_kb(p.pid))
        pid, status, _ = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            break
        if time.monotonic() - start > timeout:
            timed_out = True
            p.kill()
            pid, status, _ = os.wait4(p.pid, 0)
            break
        time.sleep(poll)
    seconds = time.monotonic() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in threads:
        t.join(timeout=5)
    return Measured(p.returncode, b"".join(bufs["out"]), b"".join(bufs["err"]), seconds, peak, timed_out)
