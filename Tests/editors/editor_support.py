"""Helpers for the editor tests (a module name of its own, so that pytest can
collect Tests/editors and Tests/integration in one run)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
EDITORS = REPO / "editors"


def run_bounded(cmd: list, env: dict, cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    """Run cmd with a hard timeout; on overrun kill that process group (by its pid) and fail."""
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
