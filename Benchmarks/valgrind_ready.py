"""What valgrind 3.19 (Debian 12's) needs to run a linkpeek binary, for the
benchmarks that count instructions with callgrind (`bench_startup.py
--callgrind`, `callgrind_http.py`):

- a copy of the binary without its DWARF 5 debug information, which this
  valgrind cannot read (`strip --strip-debug`; the symbols stay);
- a `sigsuspend` that passes the kernel a copy of its mask: libdispatch
  hands it one in read-only memory, which valgrind writes to. A small
  shim, built with `cc` and preloaded.
"""

from __future__ import annotations

import os
import subprocess

SIGSUSPEND_SHIM = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, sizeof(long));
}
"""

TOOLS = ["valgrind", "cc", "strip"]


def shim_environment(directory: str) -> dict[str, str]:
    """The environment to run a binary under valgrind with: the `sigsuspend`
    shim, built in `directory`, preloaded."""
    source = os.path.join(directory, "sigsuspend.c")
    shim = os.path.join(directory, "sigsuspend.so")
    with open(source, "w") as out:
        out.write(SIGSUSPEND_SHIM)
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", shim, source], check=True, timeout=120)
    return {**os.environ, "LD_PRELOAD": shim}


def runnable_copy(binary: str, copy: str) -> str:
    """`binary` copied to `copy` without its debug information; returns `copy`."""
    subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True, timeout=120)
    return copy
