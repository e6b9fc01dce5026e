"""The VS Code extension under `node --test`, with a stub `vscode` module, against the real daemon."""

from __future__ import annotations

import json

from editor_sites import assert_each_case_asked
from editor_support import EDITORS, assert_none_skipped_under_ci, assert_passed, needs, run_bounded

VSCODE_DIR = EDITORS / "vscode"


@needs("node")
def test_vscode_extension(linkpeek_bin, editor_server, sites, tmp_path):
    # A home of its own: the daemons the extension starts read and write this cache, never the user's.
    env = {**sites.env, "LINKPEEK_BIN": linkpeek_bin, "LINKPEEK_FIXTURE": editor_server.base_url, "HOME": str(tmp_path),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           # The daemon's locale is C: only the extension names a language.
           "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}
    res = run_bounded(["node", "--test", "test/extension.test.js"], env, VSCODE_DIR, timeout=60)
    assert_passed(res)
    assert_each_case_asked(sites)  # the cards' facts came from the site APIs
    assert "# fail 0" in res.stdout
    assert_none_skipped_under_ci(res)
    # The header itself, as the loopback server received it.
    seen = {full: headers.get("Accept-Language") for full, headers in editor_server.headers_seen
            if full.startswith("/lang?vscode=")}
    assert seen == {"/lang?vscode=1": "pt-BR", "/lang?vscode=2": "de-DE, de;q=0.9", "/lang?vscode=3": None}, seen
    # The held hovers (1, 2) asked the site nothing; the allowed one (3) did.
    held = sorted(full for full, _ in editor_server.headers_seen if "vscodehover=" in full)
    assert held == ["/page?title=Held3&vscodehover=3"], held


def test_vscode_manifest_matches_the_code():
    """Every command and setting in package.json is one the extension uses."""
    manifest = json.loads((VSCODE_DIR / "package.json").read_text())
    source = (VSCODE_DIR / "src" / "extension.js").read_text()
    assert manifest["main"] == "./src/extension.js"
    for command in manifest["contributes"]["commands"]:
        assert f"registerCommand('{command['command']}'" in source, command
    for key in manifest["contributes"]["configuration"]["properties"]:
        assert f"'{key.removeprefix('linkpeek.')}'" in source, key
    assert "dependencies" not in manifest
