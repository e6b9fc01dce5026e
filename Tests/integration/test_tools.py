"""Every outside tool and module the suites use, by name, with the Debian
package that brings it: one sentence per missing tool, instead of a
`FileNotFoundError` deep in some test. Outside CI a missing tool skips (and
says what to install); under CI=1, where `make deps` has run, the skip is a
failure (suite_guard.py)."""

from __future__ import annotations

import importlib
import shutil

import pytest

# command -> the Debian package (Makefile APT_PACKAGES) that installs it, and who needs it.
TOOLS = {
    "nvim": ("neovim", "the Neovim plugin tests"),
    "emacs": ("emacs-nox", "the Emacs plugin tests"),
    "node": ("nodejs", "the VS Code extension tests"),
    "nginx": ("nginx", "the HTTP/2 and TLS tests"),
    "openssl": ("openssl", "the TLS tests' certificates"),
    "vips": ("libvips-tools", "the image fixtures"),
    "vipsthumbnail": ("libvips-tools", "the image tests"),
    "unshare": ("util-linux", "the network namespace the suites run in"),
}

# module -> what to install (Tests/requirements.txt, in .venv/), and who needs it.
MODULES = {
    "jsonschema": ("jsonschema>=4.18", "the protocol schema checks"),
    "referencing": ("jsonschema>=4.18", "the protocol schema checks ($ref between schema files)"),
    "brotli": ("brotli", "the Content-Encoding: br tests"),
}


@pytest.mark.parametrize("command", sorted(TOOLS))
def test_tool_is_installed(command):
    package, used_by = TOOLS[command]
    if shutil.which(command) is None:
        pytest.skip(f"`{command}` is not on PATH, and {used_by} need it: install it with `make deps` "
                    f"(Debian package {package})")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_python_module_is_installed(module):
    requirement, used_by = MODULES[module]
    try:
        importlib.import_module(module)
    except ImportError:
        pytest.skip(f"the Python module `{module}` is missing, and {used_by} need it: `make deps` installs "
                    f"{requirement} into .venv/ (Tests/requirements.txt); run the suites with .venv/bin/python")
