"""The configuration snippets of editors/README.md: each parses or loads.

A snippet is the fenced block after a `<!-- check: KIND -->` line. TOML and
JSON are parsed; Lua and Vim script run in a headless Neovim, Emacs Lisp in
`emacs --batch` (eglot stubbed: Emacs 28 does not ship it); each checks
that the snippet names `linkpeek serve`.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from editor_support import EDITORS, needs, run_bounded

README = EDITORS / "README.md"
SNIPPET = re.compile(r"<!-- check: ([\w-]+) -->\n```\w*\n(.*?)\n```", re.S)


def snippets(kind: str) -> list[str]:
    found = [body for k, body in SNIPPET.findall(README.read_text()) if k == kind]
    assert found, f"no {kind} snippet in {README}"
    return found


def test_every_fenced_config_block_is_checked():
    text = README.read_text()
    checked = len(SNIPPET.findall(text))
    config_blocks = len(re.findall(r"```(?:toml|json|lua|vim|elisp)\n", text))
    assert checked == config_blocks == 10


def test_helix_toml_parses():
    (body,) = snippets("helix-toml")
    cfg = tomllib.loads(body)
    server = cfg["language-server"]["linkpeek"]
    assert (server["command"], server["args"]) == ("linkpeek", ["serve"])
    assert server["config"] == {"hoverTimeout": 1.5, "hoverImages": False}
    assert any("linkpeek" in lang["language-servers"] and lang["name"] == "markdown" for lang in cfg["language"])


def test_kakoune_toml_parses():
    (body,) = snippets("kak-toml")
    server = tomllib.loads(body)["language_server"]["linkpeek"]
    assert (server["command"], server["args"]) == ("linkpeek", ["serve"])
    assert "markdown" in server["filetypes"]
    assert server["settings"]["linkpeek"] == {"hoverTimeout": 1.5, "hoverImages": False}


def test_json_snippets_parse():
    vscode, zed, sublime = (json.loads(b) for b in snippets("json"))
    manifest = json.loads((EDITORS / "vscode" / "package.json").read_text())
    properties = manifest["contributes"]["configuration"]["properties"]
    current = {k for k, v in properties.items() if "deprecationMessage" not in v}
    assert set(vscode) == current
    assert vscode == {k: properties[k]["default"] for k in current}, "the snippet shows the manifest's defaults"
    assert zed["lsp"]["linkpeek"]["binary"] == {"path": "linkpeek", "arguments": ["serve"]}
    assert zed["lsp"]["linkpeek"]["initialization_options"] == {"hoverTimeout": 1.5, "hoverImages": False}
    assert sublime["clients"]["linkpeek"]["command"] == ["linkpeek", "serve"]
    assert sublime["clients"]["linkpeek"]["initializationOptions"] == {"hoverTimeout": 1.5, "hoverImages": False}


@needs("nvim")
def test_lua_snippets_run_in_neovim(linkpeek_bin, tmp_path):
    for i, body in enumerate(snippets("lua")):
        script = tmp_path / f"snippet{i}.lua"
        script.write_text(body)
        res = run_bounded(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
                           "--cmd", f"set rtp+={EDITORS / 'neovim'}",
                           "-c", f"try | luafile {script} | catch | cquit 1 | endtry", "-c", "qa!"],
                          {"HOME": str(tmp_path)}, tmp_path, timeout=30)
        assert res.returncode == 0, f"snippet {i}: {res.stderr}"


@needs("nvim")
def test_vim_lsp_snippet_registers_linkpeek(linkpeek_bin, tmp_path):
    (body,) = snippets("vim")
    script = tmp_path / "snippet.vim"
    script.write_text(body)
    out = tmp_path / "registered.json"
    check = tmp_path / "check.vim"
    (tmp_path / "autoload").mkdir()
    (tmp_path / "autoload" / "lsp.vim").write_text(  # vim-lsp's entry point, stubbed
        "function! lsp#register_server(info)\n  let g:registered = a:info\nendfunction\n")
    check.write_text(f"set rtp+={tmp_path}\nsource {script}\ndoautocmd User lsp_setup\n"
                     "let g:registered.cmd = g:registered.cmd({})\n"
                     f"call writefile([json_encode(g:registered)], '{out}')\n")
    env = {"PATH": f"{Path(linkpeek_bin).parent}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path)}
    res = run_bounded(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
                       "-c", f"try | source {check} | catch | cquit 1 | endtry", "-c", "qa!"],
                      env, tmp_path, timeout=30)
    assert res.returncode == 0, res.stderr
    info = json.loads(out.read_text())
    assert info["name"] == "linkpeek" and info["cmd"] == ["linkpeek", "serve"]
    assert info["initialization_options"] == {"hoverTimeout": 1.5, "hoverImages": False}


@needs("emacs")
def test_elisp_snippets_load_in_emacs(tmp_path):
    (plugin,) = snippets("elisp")
    plugin = plugin.replace("/path/to/linkpeek/editors/emacs", str(EDITORS / "emacs"))
    (eglot,) = snippets("eglot")
    check = tmp_path / "check.el"
    check.write_text(
        plugin + "\n"
        "(unless (and (fboundp 'linkpeek-preview-at-point) (memq 'linkpeek-mode text-mode-hook))"
        " (kill-emacs 2))\n"
        "(defvar eglot-server-programs nil)\n(provide 'eglot)\n" + eglot + "\n"
        "(unless (equal (cdr (car eglot-server-programs))"
        " '(\"linkpeek\" \"serve\" :initializationOptions (:hoverTimeout 1.5 :hoverImages :json-false)))"
        " (kill-emacs 3))\n")
    res = run_bounded(["emacs", "--batch", "-Q", "-l", str(check)], {"HOME": str(tmp_path)}, tmp_path, timeout=30)
    assert res.returncode == 0, res.stderr
