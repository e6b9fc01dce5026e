"""Fuzzes the daemon's input: mutated JSON-RPC messages in both framings.

Each case is a mutated valid request (bit flips, truncation, headers
duplicated or missing, lengths off by a few bytes, invalid UTF-8, unpaired
`\\ud800` escapes, deep nesting, huge numbers and strings, every JSON type in
every param, batches of mixed garbage), followed by a valid request that must
be answered when the framing can recover. When it cannot (a length that
swallows what follows), stdin is closed and the daemon must exit by itself,
cleanly (no signal), saying why on stderr. Every message it writes must be
valid JSON in a valid frame; its RSS stays under a bound.

Nothing here may reach the internet, whatever a mutation makes of a message
(a late `initialize` turning prefetch on, a `getCached` turned into a
`fetch`): every URL is a loopback port or a name under `.invalid` (RFC 6761:
never resolves), and `make test`/`make fuzz` run the fuzzers in a network
namespace with only loopback besides (Tests/sandbox.py).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time

import fuzzlib

sys.path.insert(0, str(fuzzlib.REPO / "Tests" / "integration"))
from procinfo import vm_rss_kb  # noqa: E402

RSS_BOUND_KB = 400 * 1024
ANSWER_SECONDS = 5.0
EXIT_SECONDS = 10.0

HUGE_NUMBERS = ["1e16", "1e19", "18446744073709551615", "1e308", "1" + "0" * 29, "1e400", "-1e400", "-0", "1e-400",
                "9223372036854775808", "-9223372036854775809", "0.5", "-1", "2147483648", "-2147483649",
                "4294967296", "1.5"]
ODD_VALUES = ["null", "true", "false", "[]", "{}", '""', '"x"', "[1,[2,[3]]]", '{"a":{"b":[]}}', '"\\ud800"',
              '"\\udc00\\ud800"', '"' + "a" * 100_000 + '"', "[" * 2000 + "]" * 2000]
METHODS = ["fetch", "getCached", "cancel", "initialize", "shutdown", "nosuch/method", "$/cancelRequest",
           "initialized", "textDocument/hover", "save", "saved", "getMedia", "render", "textDocument/didOpen",
           "textDocument/didChange", "textDocument/didClose", "textDocument/documentLink", "documentLink/resolve",
           "window/workDoneProgress/cancel", "workspace/didChangeConfiguration"]
PARAM_NAMES = ["url", "providerId", "timeout", "cachePolicy", "fetchSubresources", "includeData", "workDoneToken",
               "partialResultToken", "id", "initializationOptions", "limit", "offset", "width", "position",
               "textDocument", "contentChanges", "range", "format", "metadata", "token", "settings"]
UNREACHABLE = "http://127.0.0.1:9/"


def base_messages() -> list[str]:
    return [
        '{"jsonrpc":"2.0","id":1,"method":"fetch","params":{"url":"%s","timeout":2,"fetchSubresources":false}}' % UNREACHABLE,
        '{"jsonrpc":"2.0","id":"g","method":"getCached","params":{"url":"https://fuzz.invalid/a#b"}}',
        '{"jsonrpc":"2.0","id":3,"method":"cancel","params":{"providerId":1}}',
        '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}',
        '{"jsonrpc":"2.0","id":5,"method":"fetch","params":{"url":"%s","providerId":"p","timeout":1,'
        '"workDoneToken":"w","partialResultToken":7,"cachePolicy":"reload","includeData":true}}' % UNREACHABLE,
        '[{"jsonrpc":"2.0","id":6,"method":"getCached","params":{"url":"http://a.invalid/"}},{"jsonrpc":"2.0","method":"x"}]',
        '{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"processId":1,"initializationOptions":'
        '{"timeout":5,"maxConcurrency":4,"allowPrivateNetwork":true,"hoverTimeout":0.2,"prefetch":true},'
        '"capabilities":{"general":{"positionEncodings":["utf-8","utf-32"]}}}}',
        # A change of settings mid-session (the client's layer of options), its keys nested and not.
        '{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"timeout":3,'
        '"userAgent":"fuzz/1","cacheDir":null,"hover":{"fetch":"allowList","allow":["*.invalid"]},"sites":["github"],'
        '"resolve":["fuzz.invalid:80:127.0.0.1"]}}}',
        # The LSP layer: documents with URLs after emoji and CJK, edits, hovers, links, cards.
        r'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///f.md",'
        r'"languageId":"markdown","version":1,"text":"\u00e9 \ud83d\ude42 [a](%s) <www.fuzz.invalid>\r\n'
        r'[r]: %sx\n\u65e5 [t][r] [[%sy][o]]"}}}' % (UNREACHABLE, UNREACHABLE, UNREACHABLE),
        r'{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///f.md","version":2},'
        r'"contentChanges":[{"range":{"start":{"line":0,"character":3},"end":{"line":1,"character":2}},"text":"\r"},'
        r'{"range":{"start":{"line":9,"character":99},"end":{"line":0,"character":0}},"text":"https://a.invalid/\n"},'
        r'{"text":"whole %s"}]}}' % UNREACHABLE,
        r'{"jsonrpc":"2.0","id":"h","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///f.md"},'
        r'"position":{"line":0,"character":9},"workDoneToken":"hw"}}',
        r'{"jsonrpc":"2.0","id":"l","method":"textDocument/documentLink","params":{"textDocument":{"uri":"file:///f.md"}}}',
        r'{"jsonrpc":"2.0","id":"r","method":"documentLink/resolve","params":{"range":{"start":{"line":0,"character":1},'
        r'"end":{"line":0,"character":4}},"target":"%s","data":{"x":[1]}}}' % UNREACHABLE,
        r'{"jsonrpc":"2.0","id":"c","method":"render","params":{"format":"text","width":20,"metadata":'
        r'{"originalURL":"%s","title":"]( javascript:x) <b>","summary":"\u001b[31m\n# h"}}}' % UNREACHABLE,
        r'{"jsonrpc":"2.0","method":"window/workDoneProgress/cancel","params":{"token":"hw"}}',
        r'{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///f.md"}}}',
    ]


NUMBER = re.compile(r'(?<=[:\[,])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?=[,}\]])')


def hostile_numbers(rng: random.Random, text: str) -> str:
    """Replaces one or more of the message's numbers, wherever they are (ids, versions, the lines and
    characters of didOpen/didChange/hover ranges, `$/cancelRequest` ids, timeouts, widths), with a hostile
    one: notifications get no answer, so only the daemon's survival and later answers tell."""
    spots = list(NUMBER.finditer(text))
    if not spots:
        return text
    chosen = set(rng.sample(range(len(spots)), rng.randint(1, len(spots))))
    out, last = [], 0
    for i, m in enumerate(spots):
        if i in chosen:
            out += [text[last:m.start()], rng.choice(HUGE_NUMBERS)]
            last = m.end()
    return "".join(out) + text[last:]


def json_mutation(rng: random.Random, text: str) -> str:
    """Replaces a value or inserts a member: the JSON stays grammatical (mostly)."""
    kind = rng.randrange(7)
    if kind == 6:
        return hostile_numbers(rng, text)
    if kind == 0:
        value = rng.choice(HUGE_NUMBERS + ODD_VALUES)
        name = rng.choice(PARAM_NAMES)
        return text.replace('"params":{', '"params":{"%s":%s,' % (name, value), 1) if '"params":{' in text else text
    if kind == 1:
        return text.replace('"id":', '"id":%s,"x":' % rng.choice(HUGE_NUMBERS + ['"s"', "null", "true", "[]"]), 1)
    if kind == 2:
        start = text.find('"method":"')
        if start < 0:
            return text
        end = text.index('"', start + len('"method":"'))
        return text[:start] + '"method":"%s"' % rng.choice(METHODS) + text[end + 1:]
    if kind == 3:
        depth = rng.choice([10, 600, 1000, 5000])
        return text.replace('"params":', '"params":' + "[" * depth + "]" * depth + ',"z":', 1)
    if kind == 4:
        elements = [rng.choice(base_messages() + ODD_VALUES[:9] + ["1", '"s"', "{}"]) for _ in range(rng.randint(1, 20))]
        return "[" + ",".join(elements) + "]"
    return text.replace('"url":"', '"url":"\\ud800%s' % ("x" * rng.choice([0, 10, 100_000])), 1)


def make_case(rng: random.Random, framing: str) -> bytes:
    text = rng.choice(base_messages())
    if '"id":' not in text and rng.random() < 0.5:
        text = hostile_numbers(rng, text)  # a notification: its numbers are the ones least often checked
    elif rng.random() < 0.6:
        text = json_mutation(rng, text)
    body = text.encode()
    if rng.random() < 0.5:
        body = fuzzlib.mutate_bytes(rng, body, [m.encode() for m in base_messages()])
    if framing == "ndjson":
        return body.replace(b"\n", b" ") + b"\n" if rng.random() < 0.9 else body + b"\n"
    length = len(body)
    kind = rng.randrange(8)
    if kind == 0:
        length += rng.randint(-5, 5)
    headers = [b"Content-Length: %d" % max(0, length)]
    if kind == 1:
        headers.append(b"Content-Type: application/vscode-jsonrpc; charset=utf-8")
    elif kind == 2:
        headers.append(headers[0])  # duplicated
    elif kind == 3:
        headers = [b"Content-Type: x"]  # missing length
    elif kind == 4:
        headers = [b"content-length:   %d  " % length]
    elif kind == 5:
        headers = [b"Content-Length: " + rng.choice([b"-1", b"99999999999999999999999", b"1e3", b"", b"0x10"])]
    elif kind == 6:
        headers.append(fuzzlib.random_bytes(rng, rng.randint(1, 20)).replace(b"\r", b"").replace(b"\n", b""))
    return b"\r\n".join(headers) + b"\r\n\r\n" + body


class Daemon:
    """One `linkpeek serve`, its output read and checked on a thread."""

    def __init__(self, framing: str):
        self.framing = framing
        self.cache = tempfile.TemporaryDirectory(prefix="linkpeek-fuzz-")
        self.proc = subprocess.Popen(
            [fuzzlib.binary(), "serve", "--allow-private-network", "--cache-dir", self.cache.name],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.answered: set[str] = set()
        self.bad_output: str | None = None
        self.lock = threading.Condition()
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.sent: list[bytes] = []
        # The first byte of the stream picks the framing: settle it with a valid message.
        self.send(self.probe("hello"))
        self.wait_answer("hello", ANSWER_SECONDS)

    def _read_stderr(self):
        for chunk in iter(lambda: self.proc.stderr.read(65536), b""):
            self.stderr = (self.stderr + chunk)[-65536:]

    def _message(self, body: bytes):
        try:
            message = json.loads(body)
        except ValueError:
            self.bad_output = f"output is not valid JSON: {body[:200]!r}"
            return
        for one in message if isinstance(message, list) else [message]:
            if isinstance(one, dict) and "id" in one:
                with self.lock:
                    self.answered.add(json.dumps(one["id"]))
                    self.lock.notify_all()

    def _read(self):
        buf = b""
        for chunk in iter(lambda: self.proc.stdout.read(65536), b""):
            buf += chunk
            while True:
                if self.framing == "ndjson":
                    end = buf.find(b"\n")
                    if end < 0:
                        break
                    self._message(buf[:end])
                    buf = buf[end + 1:]
                else:
                    head_end = buf.find(b"\r\n\r\n")
                    if head_end < 0:
                        break
                    header = buf[:head_end].decode("latin-1")
                    if not header.startswith("Content-Length: ") or "\r\n" in header:
                        self.bad_output = f"bad output header {header[:100]!r}"
                        return
                    length = int(header[len("Content-Length: "):])
                    if len(buf) < head_end + 4 + length:
                        break
                    self._message(buf[head_end + 4: head_end + 4 + length])
                    buf = buf[head_end + 4 + length:]
        with self.lock:
            self.lock.notify_all()

    def send(self, data: bytes) -> bool:
        self.sent.append(data)
        try:
            self.proc.stdin.write(data)
            return True
        except OSError:
            return False

    def probe(self, rid: str) -> bytes:
        body = ('{"jsonrpc":"2.0","id":"%s","method":"getCached","params":{"url":"http://probe.invalid/"}}' % rid).encode()
        if self.framing == "ndjson":
            return body + b"\n"
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def wait_answer(self, rid: str, seconds: float) -> bool:
        key = json.dumps(rid)
        end = time.monotonic() + seconds
        with self.lock:
            while key not in self.answered and self.proc.poll() is None:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
            return key in self.answered

    def rss_kb(self) -> int:
        return vm_rss_kb(self.proc.pid)

    def close(self) -> int | None:
        """Closes stdin and waits for the exit; None if it did not exit in time (then it is killed)."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            return None
        finally:
            self.cache.cleanup()


def run(seconds: float, seed: int, max_cases: int | None = None) -> fuzzlib.Report:
    report = fuzzlib.Report("frames", seed)
    rng = random.Random(seed)
    cases: list[tuple[str, str, bytes]] = []
    for path in fuzzlib.corpus("frames"):
        cases.append((path.name, "lsp" if path.suffix == ".lsp" else "ndjson", path.read_bytes()))
    report.corpus_cases = len(cases)
    daemons = {"ndjson": None, "lsp": None}

    def check(index: str, framing: str, data: bytes) -> None:
        daemon = daemons[framing] or Daemon(framing)
        daemons[framing] = daemon
        if not daemon.send(data):
            pass  # the daemon closed its input: judged below by its exit
        rid = f"probe-{index}"
        # In LSP framing a wrong length may swallow the probe: wait briefly, then pad and probe again.
        first_wait = ANSWER_SECONDS if framing == "ndjson" else 0.5
        answered = daemon.send(daemon.probe(rid)) and daemon.wait_answer(rid, first_wait)
        if not answered and daemon.proc.poll() is None and framing == "lsp":
            # A length that swallowed the probe: pad past it and probe again.
            daemon.send(b"\r\n" * 40_000)
            answered = daemon.send(daemon.probe(rid + "b")) and daemon.wait_answer(rid + "b", ANSWER_SECONDS)
        history = b"".join(daemon.sent)
        suffix = "." + framing
        if daemon.bad_output:
            report.fail(index, daemon.bad_output, history, suffix)
        elif daemon.rss_kb() > RSS_BOUND_KB:
            report.fail(index, f"RSS {daemon.rss_kb()} KB past {RSS_BOUND_KB} KB", history, suffix)
        if answered and not daemon.bad_output:
            return
        code = daemon.close()
        daemons[framing] = None
        if code is None:
            report.fail(index, "no answer, and no exit within %ss of end of input (hang)" % EXIT_SECONDS, history, suffix)
        elif code < 0:
            report.fail(index, f"killed by signal {-code}: {daemon.stderr[-300:]!r}", history, suffix)
        elif not daemon.stderr.strip():
            report.fail(index, f"exited {code} without a word on stderr", history, suffix)

    for name, framing, data in cases:
        check(name, framing, data)
    for index in fuzzlib.deadline_loop(seconds, max_cases):
        framing = "ndjson" if index % 2 == 0 else "lsp"
        check(str(index), framing, make_case(rng, framing))
        report.cases += 1
    for framing, daemon in daemons.items():
        if daemon is not None:
            history = b"".join(daemon.sent)
            code = daemon.close()
            if code is None or code < 0:
                report.fail(f"end-{framing}", f"bad exit {code} at end of input", history, "." + framing)
    return report
