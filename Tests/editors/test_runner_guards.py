"""The editor runners' own guards, driven with throwaway test files: under CI=1 a test the runner skips
fails the run (the Neovim harness itself; ERT's and node's summaries through
`assert_none_skipped_under_ci`, since `0 unexpected` and `# fail 0` count a skip as a pass), and
LINKPEEK_TEST_ONLY is refused; outside CI a skip stays a skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from editor_support import EDITORS, assert_none_skipped_under_ci, needs, run_bounded, skipped_by_runner

NVIM_DIR = EDITORS / "neovim"
REPO = EDITORS.parent


def nvim_harness(tmp_path: Path, env: dict) -> subprocess.CompletedProcess:
    script = tmp_path / "skipping.lua"
    script.write_text(
        "local T = require('harness')\n"
        "T.test('runs', function() T.expect(true) end)\n"
        "T.test('skips', function() T.skip('a tool is missing') end)\n"
        "local failed = T.run()\n"
        "vim.cmd(failed == 0 and 'qall!' or 'cquit!')\n")
    cmd = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
           "--cmd", f"lua package.path = '{NVIM_DIR}/tests/?.lua;' .. package.path", "-c", f"luafile {script}"]
    return run_bounded(cmd, {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), **env},
                       tmp_path, timeout=60)


@needs("nvim")
def test_a_neovim_skip_fails_under_ci_and_passes_as_a_skip_outside(tmp_path, monkeypatch):
    monkeypatch.delenv("LINKPEEK_TEST_ONLY", raising=False)
    outside = nvim_harness(tmp_path, {"CI": ""})
    assert outside.returncode == 0, outside.stdout + outside.stderr
    assert "skip skips: a tool is missing" in outside.stdout
    ci = nvim_harness(tmp_path, {"CI": "1"})
    assert ci.returncode != 0, ci.stdout
    assert "not ok skips: skipped under CI=1" in ci.stdout


@needs("nvim")
def test_linkpeek_test_only_is_refused_by_the_neovim_harness_under_ci(tmp_path, monkeypatch):
    # run_bounded refuses it first under CI: the harness's own refusal is what this drives.
    monkeypatch.delenv("CI", raising=False)
    script = tmp_path / "only.lua"
    script.write_text("local T = require('harness')\nT.test('a', function() end)\n"
                      "vim.cmd(T.run() == 0 and 'qall!' or 'cquit!')\n")
    cmd = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
           "--cmd", f"lua package.path = '{NVIM_DIR}/tests/?.lua;' .. package.path", "-c", f"luafile {script}"]
    env = {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "LINKPEEK_TEST_ONLY": "a"}
    narrowed = subprocess.run(cmd, cwd=tmp_path, env={**env, "PATH": os.environ["PATH"], "CI": "1"},
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert narrowed.returncode != 0
    assert "LINKPEEK_TEST_ONLY is refused under CI=1" in narrowed.stdout
    allowed = subprocess.run(cmd, cwd=tmp_path, env={**env, "PATH": os.environ["PATH"]},
                             capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert "ok a" in allowed.stdout


def test_run_bounded_refuses_linkpeek_test_only_under_ci(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="LINKPEEK_TEST_ONLY"):
        run_bounded([sys.executable, "-c", "pass"], {"LINKPEEK_TEST_ONLY": "x"}, tmp_path, timeout=30)


@needs("emacs")
def test_an_ert_skip_is_counted_and_fails_under_ci(tmp_path, monkeypatch):
    (tmp_path / "skipping-tests.el").write_text(
        "(require 'ert)\n"
        "(ert-deftest guard-runs () (should t))\n"
        "(ert-deftest guard-skips () (skip-unless nil))\n")
    monkeypatch.delenv("CI", raising=False)
    res = run_bounded(["emacs", "--batch", "-Q", "-l", "skipping-tests.el", "-f", "ert-run-tests-batch-and-exit"],
                      {"HOME": str(tmp_path)}, tmp_path, timeout=60)
    assert res.returncode == 0 and "0 unexpected" in res.stderr, res.stderr
    assert skipped_by_runner(res) == 1
    assert_none_skipped_under_ci(res)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(AssertionError, match="skipped under CI=1"):
        assert_none_skipped_under_ci(res)


@needs("node")
def test_a_node_skip_is_counted_and_fails_under_ci(tmp_path, monkeypatch):
    (tmp_path / "skipping.test.js").write_text(
        "const test = require('node:test');\n"
        "test('runs', () => {});\n"
        "test('skips', { skip: 'a tool is missing' }, () => {});\n")
    monkeypatch.delenv("CI", raising=False)
    res = run_bounded(["node", "--test", "--test-reporter=tap", "skipping.test.js"], {}, tmp_path, timeout=60)
    assert res.returncode == 0 and "# fail 0" in res.stdout, res.stdout
    assert skipped_by_runner(res) == 1
    monkeypatch.setenv("CI", "1")
    with pytest.raises(AssertionError, match="skipped under CI=1"):
        assert_none_skipped_under_ci(res)


@pytest.mark.parametrize("suite", ["Tests/integration", "Tests/editors", "Tests/dist"])
def test_every_python_suite_loads_the_suite_guard(suite, tmp_path):
    """The guard's report header shows in each suite's own run (collection only)."""
    res = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider",
                          str(REPO / suite)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                         env={**os.environ, "CI": ""})
    assert "linkpeek: seed " in res.stdout, res.stdout[-2000:] + res.stderr[-2000:]
