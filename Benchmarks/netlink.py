"""A shaped network link for benchmarks: a network namespace joined to this
one by a veth pair, with a token-bucket filter (tc tbf) limiting each
direction to a rate.

Loopback has no bandwidth limit, which hides what matters on a real
network: a client that reads 30 KiB of a page instead of 600 KiB finishes
sooner. (netem, which could add latency too, is missing from the kernels
seen here; tbf is there.) The link uses addresses from 198.18.0.0/15, the range RFC
2544 sets aside for benchmarks; the server listens on 198.18.0.1 (this side)
and the clients run inside the namespace (198.18.0.2). Needs root and
iproute2 (`ip`, `tc`); everything is removed on exit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess

SERVER_IP = "198.18.0.1"
CLIENT_IP = "198.18.0.2"


def _run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=30)


def available() -> str | None:
    """None when a shaped link can be made here, else why not."""
    if os.geteuid() != 0:
        return "needs root"
    for tool in ("ip", "tc"):
        if not shutil.which(tool):
            return f"needs {tool} (apt-get install iproute2)"
    return None


@contextlib.contextmanager
def shaped_link(rate: str):
    """Yields the command prefix that runs a client inside the namespace.

    `rate` is tc's (e.g. "1gbit", "100mbit"), applied to each direction."""
    ns = f"lpbench{os.getpid()}"
    host_if, ns_if = f"lpb{os.getpid() % 100000}a", f"lpb{os.getpid() % 100000}b"
    _run("ip", "netns", "add", ns)
    try:
        _run("ip", "link", "add", host_if, "type", "veth", "peer", "name", ns_if)
        _run("ip", "link", "set", ns_if, "netns", ns)
        _run("ip", "addr", "add", f"{SERVER_IP}/30", "dev", host_if)
        _run("ip", "link", "set", host_if, "up")
        _run("ip", "netns", "exec", ns, "ip", "addr", "add", f"{CLIENT_IP}/30", "dev", ns_if)
        _run("ip", "netns", "exec", ns, "ip", "link", "set", ns_if, "up")
        _run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
        shaping = ["root", "tbf", "rate", rate, "burst", "256kb", "latency", "100ms"]
        _run("tc", "qdisc", "add", "dev", host_if, *shaping)
        _run("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", ns_if, *shaping)
        yield ["ip", "netns", "exec", ns]
    finally:
        subprocess.run(["ip", "link", "del", host_if], stderr=subprocess.DEVNULL, timeout=30)
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL, timeout=30)
