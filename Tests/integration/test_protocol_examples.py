"""Replay protocol/examples/*.jsonl against the real daemon (format: protocol/README.md §8).

Each transcript runs in a fresh `linkpeek serve --cache-dir <empty temp dir>`
in NDJSON framing; every message the daemon sends is also checked against
protocol/schema.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest

import protocol_schema
from conftest import REPO

EXAMPLES = sorted((REPO / "protocol" / "examples").glob("*.jsonl"))
WAIT = 10.0


def matches(expected, actual) -> bool:
    if expected == "$any":
        return True
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(expected) == len(actual)
                and all(matches(e, a) for e, a in zip(expected, actual)))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual
    return expected == actual


def match_unordered(expected: list, actual: list) -> bool:
    """One-to-one assignment of expectations to messages (small lists: backtracking is fine)."""
    if len(expected) != len(actual):
        return False

    def go(i, used):
        if i == len(expected):
            return True
        return any(j not in used and matches(expected[i], actual[j]) and go(i + 1, used | {j})
                   for j in range(len(actual)))
    return go(0, frozenset())


def is_log(msg) -> bool:
    return isinstance(msg, dict) and msg.get("method") == "window/logMessage"


class Transcript:
    def __init__(self, binary: str, cache_dir: Path, args: tuple = (), environment: dict | None = None):
        # From the repository root: paths in transcripts (a replayed tape) are relative to it.
        self.p = subprocess.Popen([str(Path(binary).resolve()), "serve", "--cache-dir", str(cache_dir), *args], cwd=REPO, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                                  env={**os.environ, **(environment or {})})
        self.q: queue.Queue = queue.Queue()
        self.received: list = []
        self.stderr: list = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(iter(self.p.stderr.readline, b"")), daemon=True).start()

    def _read(self):
        for line in iter(self.p.stdout.readline, b""):
            if line.strip():
                try:
                    msg = json.loads(line)
                except ValueError:
                    msg = {"$unparsable": line.decode("utf-8", "replace")}
                self.received.append(msg)
                self.q.put(msg)
        self.q.put(EOFError)

    def write(self, data: bytes):
        self.p.stdin.write(data + b"\n")
        self.p.stdin.flush()

    def next(self, what: str, log: bool = False):
        """The next message; a `window/logMessage` only when `log` (one is
        expected): the others are informational, and depend on the service
        and the network, so a transcript lists only those it checks."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                msg = self.q.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no message within {WAIT}s; expected {what}") from None
            if msg is EOFError:
                self.q.put(EOFError)
                raise AssertionError(f"daemon closed its output; expected {what}")
            if log or not is_log(msg):
                return msg

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait(timeout=5)


@pytest.mark.skipif(not EXAMPLES, reason="no protocol/examples/*.jsonl in this tree")
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_replay_example(linkpeek_bin, tmp_path, path):
    # A first line naming a `tape` (relative to protocol/examples) serves the session from it (`--replay`).
    first = json.loads(path.read_text().splitlines()[0])
    tape = ("--replay", str(path.parent / first["tape"])) if isinstance(first.get("tape"), str) else ()
    # And may name variables for the daemon's environment (a made-up GITHUB_TOKEN).
    environment = first.get("environment") if isinstance(first.get("environment"), dict) else None
    t = Transcript(linkpeek_bin, tmp_path, tape, environment)
    try:
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            step = json.loads(line)
            where = f"{path.name}:{lineno}"
            if "comment" in step:
                continue
            if "send" in step:
                t.write(json.dumps(step["send"]).encode())
            elif "sendRaw" in step:
                t.write(step["sendRaw"].encode())
            elif "expect" in step:
                got = t.next(json.dumps(step["expect"]), log=is_log(step["expect"]))
                assert matches(step["expect"], got), f"{where}: expected {step['expect']}\n got {got}"
            elif "expectUnordered" in step:
                got = [t.next(f"{where} expectUnordered") for _ in step["expectUnordered"]]
                assert match_unordered(step["expectUnordered"], got), \
                    f"{where}: expected (any order) {step['expectUnordered']}\n got {got}"
            elif "expectBatch" in step:
                got = t.next(f"{where} expectBatch")
                assert isinstance(got, list) and match_unordered(step["expectBatch"], got), \
                    f"{where}: expected batch {step['expectBatch']}\n got {got}"
            elif "expectExit" in step:
                deadline = time.monotonic() + WAIT
                extra = []
                while True:
                    try:
                        msg = t.q.get(timeout=max(0.01, deadline - time.monotonic()))
                    except queue.Empty:
                        raise AssertionError(f"{where}: output did not end within {WAIT}s") from None
                    if msg is EOFError:
                        break
                    if not is_log(msg):
                        extra.append(msg)
                assert not extra, f"{where}: unexpected messages before exit: {extra}"
                code = t.p.wait(timeout=WAIT)
                assert code == step["expectExit"], f"{where}: exit status {code}, expected {step['expectExit']}"
            else:
                raise AssertionError(f"{where}: unknown step {step}")
    finally:
        t.close()
    sent_methods = _sent_methods(path)
    problems = protocol_schema.check_list(t.received, sent_methods)
    assert not problems, "\n".join(problems[:20])


def _sent_methods(path: Path) -> dict:
    """request id -> method, from the transcript's `send` steps (ids may repeat across a session)."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            step = json.loads(line)
            msgs = step.get("send")
            for m in msgs if isinstance(msgs, list) else [msgs]:
                if isinstance(m, dict) and "method" in m and "id" in m:
                    out[json.dumps(m["id"])] = m["method"]
    return out


def test_known_reasons_agree_with_the_protocol():
    """The reasons the suite accepts are the ones error.json and §5 list, no more, no fewer."""
    from conftest import KNOWN_REASONS
    schema = json.loads((REPO / "protocol" / "schema" / "error.json").read_text())
    [listed] = [d for d in _descriptions(schema) if d.startswith("Open set: ")]
    schema_reasons = {name.strip() for name in listed[len("Open set: "):].split(",")} - {"…"}
    assert schema_reasons == KNOWN_REASONS
    readme = (REPO / "protocol" / "README.md").read_text()
    section = readme.split("`data.reason` is an open set", 1)[1].split("Treat an unknown reason", 1)[0]
    for reason in KNOWN_REASONS:
        assert f"`{reason}`" in section, reason


def _descriptions(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from _descriptions(value)
    elif isinstance(node, list):
        for value in node:
            yield from _descriptions(value)
