#!/usr/bin/env python3
"""Runs a command where the internet cannot be reached: a new network
namespace with only the loopback interface, up.

    python3 Tests/sandbox.py COMMAND [ARG...]

`make test`, `make fuzz` and `.ci/run` run the integration, editor and fuzz
suites through it, so a test that tries a public name fails at once (no DNS
server, no route) instead of quietly depending on the network; the servers
the tests start on 127.0.0.1 (fixture servers, nginx, redis) live in the same
namespace. As root it uses `unshare -n`; as another user `unshare -rn` (a
user namespace in which the user is root, which is what may create a network
namespace without privileges). It exits with status 2 and one sentence when
neither is possible.

Inside, LINKPEEK_SANDBOX=netns is set, and the tests check both that and
that the namespace really has no interface but `lo` (`suite_guard.py`).
Nested calls run the command directly.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import struct
import subprocess
import sys

SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
CHILD_FLAG = "--in-namespace"


def interfaces() -> list[str]:
    """The interfaces of this process's network namespace (/proc/self/net/dev)."""
    with open("/proc/self/net/dev") as f:
        return [line.split(":", 1)[0].strip() for line in f.readlines()[2:] if ":" in line]


def loopback_up() -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(s, SIOCGIFFLAGS, request))[1]
        return bool(flags & IFF_UP)


def isolated() -> bool:
    """True when only `lo` exists here and it is up: nothing but loopback can be reached."""
    try:
        return interfaces() == ["lo"] and loopback_up()
    except OSError:
        return False


def bring_loopback_up() -> None:
    """`ip link set lo up`, without needing iproute2: the SIOCSIFFLAGS ioctl."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(s, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | IFF_UP))


def run_inside(command: list[str]) -> None:
    try:
        bring_loopback_up()
    except OSError as e:
        sys.exit(f"sandbox: could not bring the loopback interface up in the new network namespace ({e})")
    if not isolated():
        sys.exit(f"sandbox: the new network namespace is not isolated (interfaces: {interfaces()})")
    os.environ["LINKPEEK_SANDBOX"] = "netns"
    try:
        os.execvp(command[0], command)
    except OSError as e:
        sys.exit(f"sandbox: cannot run {command[0]!r}: {e}")


def main(argv: list[str]) -> int:
    if argv[:1] == [CHILD_FLAG]:
        run_inside(argv[1:])
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    if os.environ.get("LINKPEEK_SANDBOX") == "netns" and isolated():
        os.execvp(argv[0], argv)
    unshare = shutil.which("unshare")
    if unshare is None:
        print("sandbox: `unshare` (util-linux) is not on PATH, so the tests cannot be cut off from the "
              "internet; install util-linux", file=sys.stderr)
        return 2
    flags = ["-n"] if os.geteuid() == 0 else ["-r", "-n"]
    # A probe first, so that a refusal is told in one sentence rather than by unshare's own error
    # in the middle of a test run.
    probe = subprocess.run([unshare, *flags, "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        how = ("as root, `unshare -n` failed (is this a container without CAP_SYS_ADMIN? run it with "
               "--cap-add SYS_ADMIN or --privileged)" if os.geteuid() == 0 else
               "`unshare -rn` failed: unprivileged user namespaces are off here (sysctl "
               "kernel.unprivileged_userns_clone=1, or user.max_user_namespaces > 0), or run as root")
        print(f"sandbox: cannot create a network namespace for the tests: {how}; "
              f"unshare said: {probe.stderr.strip()}", file=sys.stderr)
        return 2
    os.execv(unshare, [unshare, *flags, "--", sys.executable, os.path.abspath(__file__), CHILD_FLAG, *argv])
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
