"""Shared fixtures for the editor plugin tests (Neovim, Emacs, VS Code).

Each editor's own test script runs in a child process against the real
daemon (`$LINKPEEK_BIN`, else `<repo>/.build/debug/linkpeek`) and a loopback
fixture server started here with the editor routes added. Every child is
bounded by a timeout and killed by its pid if it overruns.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
EDITORS = REPO / "editors"
sys.path.insert(0, str(REPO / "Tests" / "integration"))
sys.path.insert(0, str(HERE))

from fixture_server import FixtureServer  # noqa: E402
from editor_routes import add_editor_routes  # noqa: E402


@pytest.fixture(scope="session")
def linkpeek_bin() -> str:
    path = Path(os.environ.get("LINKPEEK_BIN") or REPO / ".build" / "debug" / "linkpeek").resolve()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"linkpeek binary not built at {path} (run `swift build` or set LINKPEEK_BIN)")
    return str(path)


@pytest.fixture(scope="session")
def server():
    s = FixtureServer().start()
    add_editor_routes(s)
    yield s
    s.stop()


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
