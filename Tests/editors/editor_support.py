"""Helpers for the editor tests (a module name of its own, so that pytest can
collect Tests/editors and Tests/integration in one run)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
EDITORS = REPO / "editors"


INSTALL = {
    "nvim": "apt-get install neovim",
    "emacs": "apt-get install emacs-nox",
    "node": "apt-get install nodejs",
}


def needs(tool: str):
    """Decorate a test that needs `tool`. Without it the test fails, naming the tool and
    how to install it, under CI (`.ci/run` sets CI=1: a missing tool must not pass
    silently); elsewhere it is skipped with the same words."""
    def mark(fn):
        if shutil.which(tool) is not None:
            return fn
        why = f"{tool} is not installed ({INSTALL[tool]}, or make deps)"
        if not in_ci():
            return pytest.mark.skip(reason=why)(fn)

        @functools.wraps(fn)
        def fail(*args, **kwargs):
            pytest.fail(f"{why}; under CI=1 a missing tool is a failure")
        return fail
    return mark


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def run_bounded(cmd: list, env: dict, cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    """Run cmd with a hard timeout; on overrun kill that process group (by its pid) and fail.
    Under CI=1, LINKPEEK_TEST_ONLY (which narrows an editor's run to some tests) is refused."""
    if in_ci() and {**os.environ, **env}.get("LINKPEEK_TEST_ONLY"):
        pytest.fail("LINKPEEK_TEST_ONLY is set under CI=1: the editor suites would run only part of their tests")
    proc = subprocess.Popen(cmd, cwd=cwd, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate(timeout=10)
        pytest.fail(f"{cmd[0]} did not finish within {timeout}s (killed)\n"
                    f"stdout:\n{out.decode(errors='replace')}\nstderr:\n{err.decode(errors='replace')[-3000:]}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out.decode(errors="replace"),
                                       err.decode(errors="replace"))


def assert_passed(res: subprocess.CompletedProcess, summary_prefix: str = "") -> None:
    print(res.stdout)
    assert res.returncode == 0, f"exit {res.returncode}\nstdout:\n{res.stdout}\nstderr:\n{res.stderr[-3000:]}"


def skipped_by_runner(res: subprocess.CompletedProcess) -> int:
    """How many tests the editor's own runner skipped, from its summary: the Neovim harness's `skip`
    lines, ERT's `, N skipped`, node's `# skip N` (`# skipped N` from node 20) and `# todo N`."""
    import re
    count = sum(1 for line in res.stdout.splitlines() if line.startswith("skip "))
    for text in (res.stdout, res.stderr):
        count += sum(int(n) for n in re.findall(r", (\d+) skipped", text))
        count += sum(int(n) for n in re.findall(r"^# (?:skip|skipped|todo) (\d+)$", text, re.M))
    return count


def assert_none_skipped_under_ci(res: subprocess.CompletedProcess) -> None:
    """Under CI=1 a test the editor's runner skipped fails the run (its summary alone, `0 unexpected`
    or `# fail 0`, would pass); elsewhere a skip stays a skip."""
    skipped = skipped_by_runner(res)
    if in_ci():
        assert skipped == 0, (f"{skipped} editor test(s) skipped under CI=1, where nothing may be missing\n"
                              f"stdout:\n{res.stdout[-3000:]}\nstderr:\n{res.stderr[-3000:]}")
