"""The Neovim plugin, headless (`nvim --headless -u NONE`), against the real daemon."""

from __future__ import annotations

import sys
from pathlib import Path

from editor_sites import assert_each_case_asked
from editor_support import EDITORS, assert_none_skipped_under_ci, assert_passed, needs, run_bounded

NVIM_DIR = EDITORS / "neovim"


@needs("nvim")
def test_neovim_plugin(linkpeek_bin, editor_server, sites, tmp_path):
    env = {**sites.env, "LINKPEEK_BIN": linkpeek_bin, "LINKPEEK_FIXTURE": editor_server.base_url,
           "LINKPEEK_FAKE_LSP": f"{sys.executable}\n{Path(__file__).parent / 'fake_lsp.py'}",
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path),
           # The editor's language (v:lang): German; a test gives the daemon C.
           "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
    cmd = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
           "--cmd", f"set rtp+={NVIM_DIR}",
           "--cmd", f"lua package.path = '{NVIM_DIR}/tests/?.lua;' .. package.path",
           "-c", "luafile tests/test_linkpeek.lua"]
    res = run_bounded(cmd, env, NVIM_DIR, timeout=90)
    assert_passed(res)
    assert_each_case_asked(sites)  # the cards' facts came from the site APIs
    assert "not ok" not in res.stdout
    assert_none_skipped_under_ci(res)
    # The header itself, as the loopback server received it.
    seen = {full: headers.get("Accept-Language") for full, headers in editor_server.headers_seen
            if full.startswith("/lang?nvim=")}
    assert seen == {"/lang?nvim=1": "de-DE,de;q=0.9", "/lang?nvim=2": "pt-BR, pt;q=0.8", "/lang?nvim=3": None}, seen
    # hover_fetch "cacheOnly" (1) and hover_deny (2) kept K off the network; allowList let 3 through.
    held = sorted(full for full, _ in editor_server.headers_seen if "nvimhover=" in full)
    assert held == ["/page?title=Held3&nvimhover=3"], held


# Real keystrokes through Neovim's main loop (`nvim -s KEYS`): each `:lua
# T.x()` checks the screen between keys (tests/test_keys.lua).
KEYS = [
    ":lua T.setup()\r",
    # :LinkPeek any number of times in one buffer; moving closes each one.
    ":LinkPeek\r", ":lua T.shown('One')\r",
    "j", ":lua T.none()\r",
    ":LinkPeek\r", ":lua T.shown('Two')\r",
    ":LinkPeek\r", ":lua T.shown('Two')\r",
    "k", ":lua T.none()\r",
    ":LinkPeek\r", ":lua T.shown('One')\r",
    "j", ":LinkPeek\r", ":lua T.shown('Two')\r",
    # A slow page left while loading: its float never comes back.
    "j", ":LinkPeek\r", "k", ":lua T.none(3000)\r",
    # K, then away before the answer: no card at the new place.
    "jK", "k", ":lua T.hover_dropped()\r",
    # K where there is no link: Neovim's own K ('keywordprg').
    "jj", "K", ":lua T.fell_back('plainword')\r",
    # K on a link: the card.
    "gg", "K", ":lua T.hover_card('One')\r",
    # auto_preview takes the same path.
    ":lua T.setup({ auto_preview = true })\r",
    ":doautocmd CursorHold\r", ":lua T.shown('One')\r",
    "j", ":lua T.none()\r",
    ":doautocmd CursorHold\r", ":lua T.shown('Two')\r",
    "k", ":lua T.none()\r",
    ":doautocmd CursorHold\r", ":lua T.shown('One')\r",
    ":lua T.finish()\r",
]


@needs("nvim")
def test_neovim_previews_with_real_keys(linkpeek_bin, editor_server, tmp_path):
    """Previews opened again and again, the cursor moved between them: one float at a time, closed on a move."""
    keys = tmp_path / "keys"
    keys.write_text("".join(KEYS))
    env = {"LINKPEEK_BIN": linkpeek_bin, "LINKPEEK_FIXTURE": editor_server.base_url,
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)}
    cmd = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
           "--cmd", f"set rtp+={NVIM_DIR}",
           "--cmd", f"luafile {NVIM_DIR / 'tests' / 'test_keys.lua'}",
           "-s", str(keys)]
    res = run_bounded(cmd, env, NVIM_DIR, timeout=90)
    assert_passed(res)
    assert "not ok" not in res.stdout
    assert "0 failed" in res.stdout


@needs("nvim")
def test_neovim_help_tags(tmp_path):
    """doc/linkpeek.txt builds its tags with no duplicate or error."""
    doc = tmp_path / "doc"
    doc.mkdir()
    (doc / "linkpeek.txt").write_bytes((NVIM_DIR / "doc" / "linkpeek.txt").read_bytes())
    res = run_bounded(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
                       "-c", "try | helptags doc | catch | cquit 1 | endtry", "-c", "qa!"],
                      {}, tmp_path, timeout=30)
    assert res.returncode == 0, res.stderr
    tags = (doc / "tags").read_text().split("\n")
    names = {line.split("\t")[0] for line in tags if line}
    assert {":LinkPeek", ":LinkPeekSave", ":LinkPeekSaved", "linkpeek.setup()", "linkpeek-health"} <= names
