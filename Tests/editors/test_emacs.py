"""linkpeek.el under `emacs --batch` (ERT), against the real daemon."""

from __future__ import annotations

import shutil

from editor_sites import assert_each_case_asked
from editor_support import EDITORS, assert_none_skipped_under_ci, assert_passed, needs, run_bounded

EMACS_DIR = EDITORS / "emacs"


@needs("emacs")
def test_emacs_package(linkpeek_bin, editor_server, sites, tmp_path):
    env = {**sites.env, "LINKPEEK_BIN": linkpeek_bin, "LINKPEEK_FIXTURE": editor_server.base_url, "HOME": str(tmp_path),
           # The locale is C: a test gives Emacs a language of its own (system-messages-locale).
           "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}
    res = run_bounded(["emacs", "--batch", "-Q", "-L", ".", "-l", "tests/linkpeek-tests.el",
                       "-f", "ert-run-tests-batch-and-exit"], env, EMACS_DIR, timeout=90)
    assert_passed(res)
    assert_each_case_asked(sites)  # the cards' facts came from the site APIs
    assert "0 unexpected" in res.stderr, res.stderr[-3000:]
    assert_none_skipped_under_ci(res)
    # The header itself, as the loopback server received it.
    seen = {full: headers.get("Accept-Language") for full, headers in editor_server.headers_seen
            if full.startswith("/lang?emacs=")}
    assert seen == {"/lang?emacs=1": "de-DE,de;q=0.9", "/lang?emacs=2": "pt-BR, pt;q=0.8", "/lang?emacs=3": None}, seen
    # The held eldoc cards (1-3) asked the site nothing; the allowed card (4) and the explicit preview (5) did.
    held = sorted(full for full, _ in editor_server.headers_seen if "emacshover=" in full)
    assert held == ["/page?title=Held4&emacshover=4", "/page?title=Held5&emacshover=5"], held


@needs("emacs")
def test_emacs_package_byte_compiles_cleanly(tmp_path):
    """No warning from the byte compiler (undefined functions, wide docstrings, …)."""
    for f in ("linkpeek-protocol.el", "linkpeek-card.el", "linkpeek.el", "linkpeek-preview.el"):
        shutil.copy(EMACS_DIR / f, tmp_path / f)
    res = run_bounded(["emacs", "--batch", "-Q", "-L", ".", "--eval",
                       "(progn (setq byte-compile-error-on-warn t)"
                       " (dolist (f (directory-files \".\" nil \"\\\\.el\\\\'\"))"
                       "  (unless (byte-compile-file f) (kill-emacs 1))))"],
                      {"HOME": str(tmp_path)}, tmp_path, timeout=60)
    assert res.returncode == 0, res.stderr
