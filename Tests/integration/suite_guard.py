"""The rules every Python test suite of linkpeek runs under, as one pytest
plugin (loaded by Tests/integration/conftest.py and Tests/editors/conftest.py
with `pytest_plugins`), so that they hold for test files written later too:

- **CI=1 turns every skip into a failure.** Under CI (`.ci/run` exports
  CI=1; any value but empty, 0, false or no counts) a test that skips because
  a tool, a codec, a corpus or the sandbox is missing fails, with its skip
  reason as the sentence that names the cause: `make deps` installs
  everything, so a skip there means a broken install. Outside CI a skip says
  what to install.
- **No network but loopback.** The suites are meant to run inside
  `Tests/sandbox.py` (a network namespace with only `lo`); the header says
  whether they do, and under CI a run outside it stops at once.
- **Nothing left running.** pytest becomes a child subreaper, so a process
  whose parent died (a daemon's orphaned helper) is re-parented to pytest
  instead of to init and stays visible. After every test file, every process
  descended from pytest that the file started, and that no session-scoped
  fixture owns, must be gone (a bounded wait): a leftover fails the file's
  last test, naming its pid and command line, and is then killed by its pid.
- **Every frame parses.** A frame from the daemon that a test's client
  could not parse fails that test at its end.
- **Fixed seeds.** LINKPEEK_SEED (default 20261126, `make test` passes
  TEST_SEED) seeds Python's `random` before each test; every failure prints
  the seed and the command that replays it.
"""

from __future__ import annotations

import ctypes
import os
import random
import shlex
import signal
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import sandbox  # noqa: E402  (Tests/sandbox.py)

DEFAULT_SEED = 20261126
INSTALL_HINT = "`make deps` installs every tool, codec and module the suites use"
LEFTOVER_GRACE_SECONDS = 10.0
PR_SET_CHILD_SUBREAPER = 36


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def seed() -> int:
    return int(os.environ["LINKPEEK_SEED"])


def sandboxed() -> bool:
    return os.environ.get("LINKPEEK_SANDBOX") == "netns" and sandbox.isolated()


def require_sandbox() -> None:
    """Stops a test that is about to try a public address when the suite is not in the sandbox: such a
    test may only ever run where nothing can leave the machine."""
    if not sandboxed():
        pytest.skip("not inside the tests' network namespace: run through `make test` or "
                    "`python3 Tests/sandbox.py python3 -m pytest ...` (util-linux's unshare)")


# -- processes ------------------------------------------------------------------

def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a process, from /proc/PID/stat; None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    rest = data[data.rindex(b")") + 2:].split()
    return int(rest[1]), rest[0].decode()


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            parts = [p.decode("utf-8", "replace") for p in f.read().split(b"\0") if p]
    except OSError:
        return "?"
    return shlex.join(parts)[:300] or "?"


def descendants(root: int | None = None) -> set[int]:
    """Live (not zombie) processes below `root` (default: this pytest process)."""
    root = root or os.getpid()
    parent_of = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st is not None and st[1] != "Z":
                parent_of[int(name)] = st[0]
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, ppid in parent_of.items() if ppid in frontier and pid not in found}
        found |= frontier
    return found


class ProcessLedger:
    def __init__(self):
        self.owned_by_session: set[int] = set()
        self.subreaper = False

    def become_subreaper(self) -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            self.subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        except (OSError, AttributeError):
            self.subreaper = False

    def leftovers(self, before: set[int]) -> set[int]:
        """Processes started since `before` was taken that are still alive after a bounded wait."""
        deadline = time.monotonic() + LEFTOVER_GRACE_SECONDS
        while True:
            left = descendants() - before - self.owned_by_session
            if not left or time.monotonic() >= deadline:
                return left
            time.sleep(0.1)


LEDGER = ProcessLedger()


# -- hooks ----------------------------------------------------------------------

def pytest_configure(config):
    os.environ.setdefault("LINKPEEK_SEED", str(DEFAULT_SEED))
    LEDGER.become_subreaper()
    if in_ci() and not sandboxed():
        raise pytest.UsageError(
            "CI=1, but this run is not inside the tests' network namespace (only `lo`): run it through "
            "`make test` or `python3 Tests/sandbox.py ...`, so that no test can reach the internet")


def pytest_report_header(config):
    where = ("network namespace with only lo (Tests/sandbox.py)" if sandboxed() else
             "NOT sandboxed: the internet may be reachable; `make test` runs the suites in a network namespace")
    return [f"linkpeek: seed {seed()} (LINKPEEK_SEED), {where}, CI={'1: a skip fails' if in_ci() else 'off'}"]


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    """Processes that a session- or package-scoped fixture starts (nginx, redis, ...) live until the end of
    the session: they are not a test file's leftovers. They are still checked at the session's end."""
    before = descendants() if fixturedef.scope in ("session", "package") else None
    yield
    if before is not None:
        LEDGER.owned_by_session |= descendants() - before


@pytest.fixture(scope="module", autouse=True)
def _no_process_left_behind(request):
    before = descendants()
    yield
    left = LEDGER.leftovers(before)
    if not left:
        return
    described = [f"pid {pid}: {_cmdline(pid)}" for pid in sorted(left)]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    pytest.fail(f"{request.node.name} left {len(left)} process(es) running "
                f"{LEFTOVER_GRACE_SECONDS:g} s after its last test (killed now by pid):\n  " + "\n  ".join(described),
                pytrace=False)


def pytest_sessionfinish(session, exitstatus):
    # Session fixtures are torn down by now: whatever is still below pytest was left by someone.
    left = LEDGER.leftovers(set())
    if left:
        lines = [f"pid {pid}: {_cmdline(pid)}" for pid in sorted(left)]
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        sys.stderr.write("suite_guard: processes still running at the end of the session (killed by pid):\n  "
                         + "\n  ".join(lines) + "\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _seeded_random():
    random.seed(seed())
    yield


@pytest.fixture(autouse=True)
def _no_unparsable_frames():
    """Any frame from the daemon that a test's client could not parse (not JSON, no or a bad
    Content-Length) fails that test, whether or not it looked at that message: every LinkPeekClient
    made during the test is checked when it ends (protocol/python/linkpeek_client.py keeps them)."""
    module = sys.modules.get("linkpeek_client")
    before = set(module.LinkPeekClient.instances) if module else set()
    yield
    module = module or sys.modules.get("linkpeek_client")
    if module is None:
        return
    problems = [f"pid {c.pid}: {bytes(body[:300])!r}" for c in list(module.LinkPeekClient.instances)
                if c not in before for body in c.unparsable]
    if problems:
        pytest.fail("the daemon wrote frames the client could not parse:\n  " + "\n  ".join(problems[:20]),
                    pytrace=False)


def _replay_command(nodeid: str, rootdir: str) -> str:
    suite = os.path.relpath(rootdir, HERE.parent.parent)
    return (f"LINKPEEK_SEED={seed()} python3 Tests/sandbox.py .venv/bin/python -m pytest "
            f"{shlex.quote(os.path.join(suite, nodeid))}")


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _judge(report, rootdir: str) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = _skip_reason(report)
        if in_ci():
            report.outcome = "failed"
            report.longrepr = (f"skipped under CI=1, where nothing may be missing: {reason}\n"
                               f"({INSTALL_HINT}; a skip here means it did not)")
        elif "install" not in reason and "make deps" not in reason and isinstance(report.longrepr, tuple):
            path, line, _ = report.longrepr
            report.longrepr = (path, line, f"Skipped: {reason} ({INSTALL_HINT})")
    if report.failed:
        report.sections.append(("seed", f"LINKPEEK_SEED={seed()}; replay: "
                                        f"{_replay_command(report.nodeid, rootdir)}"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _judge(outcome.get_result(), str(item.config.rootpath))


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _judge(outcome.get_result(), str(collector.config.rootpath))
