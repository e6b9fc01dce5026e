"""`linkpeek fetch --format markdown|html|text`: the cards outside editors."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import time

import pytest


def cards(run_cli, *args):
    return run_cli("fetch", "--allow-private-network", *args, parse=False)


def test_markdown_card_is_the_hover_card(run_cli, server):
    url = server.url("/page?title=Card%20Title")
    res = cards(run_cli, "--format", "markdown", url)
    assert res.returncode == 0, res.describe()
    head, image_line = res.stdout.rsplit("\n\n", 1)
    assert head == f"**Card Title**\n\nFixture Site · 127.0.0.1:{server.port}\n\nAn Open Graph description.", res.describe()
    # The hover's thumbnail as a data: URI, never the page's image URL.
    assert re.fullmatch(r"!\[\]\(data:image/jpeg;base64,[A-Za-z0-9+/]+=*\)\n", image_line), res.describe()


def test_html_card_is_escaped_and_has_no_script(run_cli, server):
    url = server.url("/page?title=A%20%26%20B%20%3Cscript%3Ex%3C/script%3E")
    res = cards(run_cli, "--format", "html", url)
    assert res.returncode == 0, res.describe()
    out = res.stdout
    assert out.startswith('<figure class="linkpeek-card"') and out.endswith("</figure>\n"), out
    assert "<strong>A &amp; B &lt;script&gt;x&lt;/script&gt;</strong>" in out, out
    assert "<script" not in out
    assert f'href="{url.replace("&", "&amp;")}"' in out


def test_text_card_wraps_and_failures_say_why(run_cli, server):
    ok, missing = server.url("/page?title=Wrapped"), server.url("/status/404")
    res = cards(run_cli, "--format", "text", "--width", "20", ok, missing)
    assert res.returncode == 1, res.describe()
    assert "\x1b" not in res.stdout  # not a terminal: no colours
    host = f"127.0.0.1:{server.port}"  # the port, as every card shows it when it is not the default
    assert res.stdout == (f"Wrapped\nFixture Site ·\n{host}\nAn Open Graph\ndescription.\n{ok}\n\n"
                          f"{host}\n{missing}\n(HTTP 404)\n"), res.describe()


def test_bad_width_is_a_usage_error(run_cli):
    res = run_cli("fetch", "--format", "text", "--width", "1e300", "https://example.com/", parse=False)
    assert res.returncode == 2
    assert "--width must be an integer from 20 to 1000" in res.stderr


def run_on_tty(args: list, env: dict | None = None, timeout: float = 30,
               stream: str = "stdout") -> tuple[int, str, bytes]:
    """Runs the command with `stream` (stdout or stderr) on a pseudo-terminal and the other on a pipe, read
    once it has exited (small outputs only); returns (exit code, what the terminal got, what the pipe got)."""
    master, slave = pty.openpty()
    on_tty = {"stdout": slave, "stderr": subprocess.PIPE} if stream == "stdout" else \
        {"stdout": subprocess.PIPE, "stderr": slave}
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, env=env, **on_tty)
    piped = proc.stderr if stream == "stdout" else proc.stdout
    os.close(slave)
    out = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        code = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return code, out.decode("utf-8", "replace"), piped.read()


@pytest.mark.parametrize("no_color", [False, True])
def test_colours_only_on_a_terminal_without_no_color(linkpeek_bin, server, no_color):
    url = server.url("/page?title=Coloured")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if no_color:
        env["NO_COLOR"] = "1"
    _, out, _ = run_on_tty([linkpeek_bin, "fetch", "--allow-private-network", "--format", "text", "--width", "40", url], env)
    if no_color:
        assert "\x1b" not in out, repr(out)
        assert out.startswith("Coloured\r\n"), repr(out)
    else:
        assert out.startswith(f"\x1b[1mColoured\x1b[0m\r\n\x1b[2mFixture Site · 127.0.0.1:{server.port}\x1b[0m"), repr(out)


def test_no_card_shows_a_urls_credentials(run_cli, server):
    """`user:password@` in the URL asked: fetched with it, never printed in a card."""
    host = f"127.0.0.1:{server.port}"
    url = f"http://me:s3cret@{host}/page?title=Private"
    plain = server.url("/page?title=Private")
    text = cards(run_cli, "--format", "text", "--width", "200", url)
    assert text.returncode == 0, text.describe()
    assert text.stdout == f"Private\nFixture Site · {host}\nAn Open Graph description.\n{plain}\n", text.describe()
    for fmt in ("markdown", "html"):
        res = cards(run_cli, "--format", fmt, url)
        assert res.returncode == 0, res.describe()
        assert "s3cret" not in res.stdout and "me:" not in res.stdout, res.describe()
    failed = cards(run_cli, "--format", "text", f"http://me:s3cret@{host}/status/404")
    assert failed.stdout == f"{host}\n{server.url('/status/404')}\n(HTTP 404)\n", failed.describe()
