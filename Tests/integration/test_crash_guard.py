"""The crash guard on a real fault: `crash-guard-probe` (Tests/crash-guard-probe) takes its stdout the way
`linkpeek serve` does, writes one line, and faults (a Swift trap, a bad pointer, abort()). The client must
read end-of-file at once, the process must end with the fault's signal, and nothing it spawned may be left,
with and without `SWIFT_BACKTRACE` (the Swift runtime's backtracer, a child process, was seen outliving
the crashed process for over 20 minutes). The signal-from-outside cases are in test_hostile_input.py.

The probe is `$LINKPEEK_CRASH_PROBE`, else `.build/debug/crash-guard-probe` (built by `swift build`).
The time bounds are hang bounds that fail loudly; the checks are the order and the outcome."""
import os
import select
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import suite_guard

REPO = Path(__file__).resolve().parents[2]
# The guard's own bound on a backtrace (LINKPEEK_CRASH_EXIT_SECONDS in crash_guard.c), plus slack for a loaded machine.
GUARD_BOUND = 10
SLACK = 20


@pytest.fixture(scope="module")
def probe() -> str:
    path = Path(os.environ.get("LINKPEEK_CRASH_PROBE") or REPO / ".build" / "debug" / "crash-guard-probe")
    if not os.access(path, os.X_OK):
        pytest.skip(f"crash-guard-probe not built at {path} (run `swift build` or set LINKPEEK_CRASH_PROBE)")
    return str(path)


def eof_after(stream, timeout: float) -> float | None:
    """Seconds until `stream` reads end-of-file, or None past `timeout`."""
    start = time.monotonic()
    while True:
        left = start + timeout - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([stream], [], [], left)
        if ready and not os.read(stream.fileno(), 65536):
            return time.monotonic() - start


def run_probe(probe: str, mode: str, env: dict, stdin=subprocess.DEVNULL) -> tuple[int, str, float, float]:
    """Runs the probe; returns its exit code, its stderr, and the seconds from its `ready` line to the
    end-of-file on its protocol output and to its exit."""
    # A file, not a pipe: a backtracer left behind would hold a pipe open and block the read.
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen([probe, mode], stdin=stdin, stdout=subprocess.PIPE, stderr=err, bufsize=0, env=env)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "the probe wrote nothing within 30 s"
        line = os.read(proc.stdout.fileno(), 65536)
        assert line.startswith(b"ready "), line
        start = time.monotonic()
        eof = eof_after(proc.stdout, GUARD_BOUND + SLACK)
        assert eof is not None, f"no end-of-file on the protocol output {GUARD_BOUND + SLACK} s after the fault"
        code = proc.wait(timeout=GUARD_BOUND + SLACK)
        exited = time.monotonic() - start
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        return code, stderr, eof, exited
    finally:
        err.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def left_behind(grace: float = 5) -> list[str]:
    """Processes a crash spawned that are still alive `grace` seconds after the probe's exit (a process
    killed is gone within moments): re-parented to this pytest (a child subreaper) when the probe died.
    Their zombies are reaped here."""
    deadline = time.monotonic() + grace
    while True:
        alive = [suite_guard._cmdline(pid) for pid in suite_guard.descendants()
                 if "swift-backtrace" in suite_guard._cmdline(pid) or "crash-guard-probe" in suite_guard._cmdline(pid)]
        if not alive or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    for name in os.listdir("/proc"):
        if name.isdigit() and suite_guard._stat(int(name)) == (os.getpid(), "Z"):
            try:
                with open(f"/proc/{name}/comm") as f:
                    comm = f.read()
            except OSError:
                continue
            if comm.startswith("swift-backtrac"):
                os.waitpid(int(name), os.WNOHANG)
    return alive


FAULTS = [("trap", signal.SIGILL), ("segv", signal.SIGSEGV), ("abort", signal.SIGABRT)]


@pytest.mark.parametrize("mode,signo", FAULTS)
def test_a_fault_closes_the_protocol_output_and_ends_with_its_signal(probe, mode, signo):
    env = {k: v for k, v in os.environ.items() if k != "SWIFT_BACKTRACE"}
    code, stderr, eof, exited = run_probe(probe, mode, env)
    assert code == -signo, f"exit code {code}, expected death by signal {signo}\n{stderr[-2000:]}"
    assert "linkpeek: crashed with " in stderr, stderr[-2000:]
    assert "did not fault" not in stderr
    assert not left_behind()


@pytest.mark.parametrize("mode,signo", FAULTS)
def test_with_swift_backtrace_the_output_closes_first_and_the_process_ends_within_the_bound(probe, mode, signo):
    """The runtime's backtracer runs (the user asked for it), but the protocol output closes before it
    starts, the crashed process is gone within the guard's bound whatever the backtracer does, and the
    backtracer does not outlive it."""
    env = dict(os.environ, SWIFT_BACKTRACE="enable=yes,interactive=no,color=no")
    code, stderr, eof, exited = run_probe(probe, mode, env)
    assert code in (-signo, -signal.SIGALRM, -signal.SIGKILL), f"exit code {code}\n{stderr[-3000:]}"
    # Closed by the guard before the runtime's handler ran: within moments, not after the backtrace.
    assert eof < 2, f"end-of-file {eof:.1f} s after the fault: the guard did not close the output first"
    assert exited < GUARD_BOUND + SLACK
    assert "linkpeek: crashed with " not in stderr, "the in-process backtrace ran although SWIFT_BACKTRACE is set"
    assert not left_behind(), f"left behind by the crash: {left_behind()}"


def test_a_backtracer_that_outlasts_the_bound_is_ended_with_the_crashed_process(probe):
    """An interactive backtracer waits a minute for a key on the probe's stdin (a pipe nobody writes):
    the guard's bound ends the crashed process with its signal, and the backtracer with it (it was left
    blocked forever on its socket to the dead process)."""
    env = dict(os.environ, SWIFT_BACKTRACE="enable=yes,interactive=yes,timeout=60,color=no")
    keys = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        code, stderr, eof, exited = run_probe(probe, "segv", env, stdin=keys.stdout)
    finally:
        keys.kill()
        keys.wait(5)
    assert "Press space to interact" in stderr, stderr[-2000:]
    assert code == -signal.SIGSEGV, f"exit code {code}\n{stderr[-2000:]}"
    assert eof < 2
    assert GUARD_BOUND - 1 < exited < GUARD_BOUND + SLACK, f"ended {exited:.1f} s after the fault"
    assert not left_behind(), f"left behind by the crash: {left_behind(0)}"
