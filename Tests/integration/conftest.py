"""Shared fixtures for linkpeek's integration tests.

The tests run the real `linkpeek` binary: `$LINKPEEK_BIN`, else
`<repo>/.build/debug/linkpeek`. Every HTTP request goes to a fixture server on
127.0.0.1 that the tests start and stop; nothing touches the internet.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "protocol" / "python"))

from fixture_server import FixtureServer  # noqa: E402
from procinfo import run_measured  # noqa: E402
from linkpeek_client import LinkPeekClient  # noqa: E402
import protocol_schema  # noqa: E402

# CI=1 turns skips into failures, the leftover-process check after every file, fixed seeds, the sandbox
# check: one plugin shared with Tests/editors (suite_guard.py says why each rule is there).
pytest_plugins = ("suite_guard",)

# The tests talk to servers they start on 127.0.0.1: a proxy from the
# developer's environment must not carry them elsewhere (linkpeek honours
# http_proxy & co.); the proxy tests set their own.
for _name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
              "SSL_CERT_FILE", "SSL_CERT_DIR"):
    os.environ.pop(_name, None)

KNOWN_KINDS = {"cancelled", "timedOut", "failed", "unknown"}
KNOWN_REASONS = {"invalidURL", "unsupportedScheme", "blockedAddress", "dns", "connect", "tls", "httpStatus",
                 "tooManyRedirects", "unsupportedContentType", "emptyBody", "network", "notCached", "fetchRefused", "notRecorded",
                 "imageTooLarge", "unsupportedImage", "decodeFailed", "rateLimited", "blocked"}


def binary_path() -> Path:
    return Path(os.environ.get("LINKPEEK_BIN") or REPO / ".build" / "debug" / "linkpeek")


@pytest.fixture(scope="session")
def linkpeek_bin() -> str:
    path = binary_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        # Under CI a missing binary is a failure: a suite that skips everything proves nothing.
        if os.environ.get("CI"):
            pytest.fail(f"linkpeek binary not built at {path}")
        pytest.skip(f"linkpeek binary not built at {path} (run `swift build` or set LINKPEEK_BIN)")
    return str(path)


@pytest.fixture(autouse=True)
def private_cache_home(tmp_path_factory, monkeypatch):
    """Every test gets its own empty XDG_CACHE_HOME, so no test reads or
    writes the real ~/.cache/linkpeek, and no test sees another's cache hits
    (a test that counts server hits would otherwise count cached answers)."""
    home = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


@pytest.fixture
def make_client(linkpeek_bin, tmp_path):
    """make_client(framing="lsp", private=True, init_options=None, args=(), initialize=True, timeout=30,
    cache_dir=None, capabilities=None, own_cache=True, env=None) -> started client.

    Each client gets its own empty cache dir (or `cache_dir`, to share one; or, with `own_cache=False`, the
    test's XDG_CACHE_HOME, which a restarted daemon of the same test finds again); at teardown it is shut
    down and every message it received is checked against protocol/schema (and, for every client a
    test makes, frames that are not JSON fail the test: suite_guard.py).
    """
    clients = []

    def make(framing="lsp", private=True, init_options=None, args=(), initialize=True, timeout=30, cache_dir=None,
             capabilities=None, own_cache=True, env=None):
        argv = [*(["--allow-private-network"] if private else []), *args]
        if own_cache:
            cache = Path(cache_dir) if cache_dir else tmp_path / f"cache{len(clients)}"
            cache.mkdir(exist_ok=True)
            argv = ["--cache-dir", str(cache), *argv]
        c = LinkPeekClient(linkpeek_bin, args=argv, init_options=init_options, framing=framing,
                           initialize=initialize, timeout=timeout, capabilities=capabilities, env=env)
        c.__enter__()
        clients.append(c)
        return c

    yield make
    problems = []
    for c in clients:
        try:
            c.close(timeout=10)
        finally:
            c.kill()
        problems += protocol_schema.check_messages(c)
    if problems:
        pytest.fail("messages that do not validate against protocol/schema:\n" + "\n".join(problems[:20]))


@pytest.fixture(scope="session")
def server():
    s = FixtureServer().start()
    yield s
    s.stop()


@dataclass
class CLIResult:
    args: list
    returncode: int
    stdout: str
    stderr: str
    elapsed: float
    max_rss_kb: int
    objects: list = field(default_factory=list)

    @property
    def one(self) -> dict:
        assert len(self.objects) == 1, f"expected one JSON object, got {len(self.objects)}: {self.stdout[:2000]!r}"
        return self.objects[0]

    def describe(self) -> str:
        return (f"args={self.args} rc={self.returncode} elapsed={self.elapsed:.2f}s rss={self.max_rss_kb}KB\n"
                f"stdout={self.stdout[:3000]!r}\nstderr={self.stderr[-2000:]!r}")


def run_process(cmd: list, stdin: bytes | None = None, timeout: float = 60.0) -> tuple[int, bytes, bytes, float, int]:
    """Run cmd; return (returncode, stdout, stderr, elapsed, peak RSS in KB of that child).

    A child still running after `timeout` is killed (by its pid) and the test fails.
    """
    m = run_measured(cmd, stdin, timeout, poll=0.01)
    if m.timed_out:
        pytest.fail(f"{cmd} did not finish within {timeout}s (killed)\n"
                    f"stdout={m.stdout[:2000]!r}\nstderr={m.stderr[-2000:]!r}")
    return m.returncode, m.stdout, m.stderr, m.seconds, m.peak_rss_kb


def parse_json_lines(text: str) -> list:
    objs = []
    for line in text.splitlines():
        if line.strip():
            objs.append(json.loads(line))
    return objs


@pytest.fixture
def run_cli(linkpeek_bin):
    """run_cli(*args, stdin=None, timeout=60) -> CLIResult; asserts no crash (exit code in 0, 1, 2)."""

    def run(*args, stdin: str | bytes | None = None, timeout: float = 60.0, parse: bool = True) -> CLIResult:
        if isinstance(stdin, str):
            stdin = stdin.encode()
        rc, out, err, elapsed, rss = run_process([linkpeek_bin, *args], stdin, timeout)
        res = CLIResult(list(args), rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), elapsed, rss)
        # 0 ok, 1 a URL failed, 2 usage, 66 `parse` could not read its input (EX_NOINPUT); anything else is a crash.
        assert rc in (0, 1, 2, 66), f"linkpeek crashed or exited oddly\n{res.describe()}"
        if parse and rc != 2:
            try:
                res.objects = parse_json_lines(res.stdout)
            except ValueError as e:
                pytest.fail(f"stdout is not one JSON object per line ({e})\n{res.describe()}")
        return res

    return run


@pytest.fixture
def fetch(run_cli):
    """fetch(url, *flags) with --allow-private-network; returns CLIResult."""

    def go(*urls_and_flags, timeout: float = 60.0, private: bool = True) -> CLIResult:
        args = ["fetch", *(["--allow-private-network"] if private else []), *urls_and_flags]
        return run_cli(*args, timeout=timeout)

    return go


def assert_error(obj: dict, kind: str = "failed", reason: str | None = None, res: CLIResult | None = None):
    ctx = res.describe() if res else json.dumps(obj)
    assert "error" in obj, f"expected an error object\n{ctx}"
    err = obj["error"]
    assert "originalURL" in obj, ctx
    assert err.get("kind") in KNOWN_KINDS, ctx
    assert isinstance(err.get("message"), str) and err["message"], ctx
    assert err.get("kind") == kind, f"kind {err.get('kind')!r} != {kind!r}\n{ctx}"
    if reason is not None:
        reasons = {reason} if isinstance(reason, str) else set(reason)
        assert err.get("reason") in reasons, f"reason {err.get('reason')!r} not in {reasons}\n{ctx}"
    if err.get("kind") == "failed":
        assert err.get("reason") in KNOWN_REASONS, ctx
