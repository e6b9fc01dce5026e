"""Shared fixtures for the editor plugin tests (Neovim, Emacs, VS Code).

Each editor's own test script runs in a child process against the real
daemon (`$LINKPEEK_BIN`, else `<repo>/.build/debug/linkpeek`) and a loopback
fixture server started here with the editor routes added. Every child is
bounded by a timeout and killed by its pid if it overruns.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "integration"))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "protocol" / "python"))  # for editor_sites's HTTPS fixture

from fixture_server import FixtureServer  # noqa: E402
from editor_routes import add_editor_routes  # noqa: E402
from editor_support import REPO  # noqa: E402
from editor_sites import serve_sites  # noqa: E402

# The rules shared with Tests/integration: CI=1 skips fail, no process left behind, fixed seeds.
pytest_plugins = ("suite_guard",)


@pytest.fixture(scope="session")
def linkpeek_bin() -> str:
    path = Path(os.environ.get("LINKPEEK_BIN") or REPO / ".build" / "debug" / "linkpeek").resolve()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"linkpeek binary not built at {path} (run `swift build` or set LINKPEEK_BIN)")
    return str(path)


@pytest.fixture(scope="session")
def editor_server():
    s = FixtureServer().start()
    add_editor_routes(s)
    yield s
    s.stop()


@pytest.fixture
def sites(tmp_path_factory):
    """The site engines' APIs (editor_sites.py); `sites.env` routes a daemon to them."""
    with serve_sites(tmp_path_factory.mktemp("sites-ca")) as s:
        yield s
