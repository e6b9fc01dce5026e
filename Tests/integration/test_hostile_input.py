"""No input may kill the daemon: hostile numbers in every numeric
param of every request, ids echoed exactly as written, and a crash that the
client sees as end-of-file at once.

The numeric params are read from protocol/schema: every property of a
`<method>.params.json` whose type is `number` or `integer` (or an id-like
`integer`/`string`), with its documented `minimum`/`maximum`. A value in range
must not be refused as invalid params; a value out of range must be refused
with -32602 and a message naming the field. After each batch the daemon must
still answer, and it must exit with 0 when its input ends.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import select
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

import suite_guard

REPO = Path(__file__).resolve().parent.parent.parent
SCHEMA_DIR = REPO / "protocol" / "schema"

# The values the issue lists, and their neighbours: JSON text, sent as written.
HOSTILE = ["1e16", "1e19", "18446744073709551615", "1e308", "1" + "0" * 29, "1e400", "-1e400", "-1", "0", "-0",
           "0.5", "1.5", "9223372036854775808", "-9223372036854775809", "1e-400", "1", "30", "1024", "1025",
           "3600", "3600.5", "2", "64"]

INT64 = (-(2 ** 63), 2 ** 63 - 1)
UNREACHABLE = "http://127.0.0.1:9/"  # discard port: refused at once


def numeric_fields(schema: dict, prefix: str = ""):
    """(dotted path, (minimum, maximum), integral) for each numeric property, nested objects included."""
    for name, prop in (schema.get("properties") or {}).items():
        path = prefix + name
        types = prop.get("type")
        types = types if isinstance(types, list) else [types]
        if "object" in types and "properties" in prop:
            yield from numeric_fields(prop, path + ".")
        elif "integer" in types and "string" in types:
            yield path, INT64, True
        elif "number" in types or "integer" in types:
            low = prop.get("minimum", prop.get("exclusiveMinimum"))
            high = prop.get("maximum", prop.get("exclusiveMaximum"))
            assert low is not None and high is not None, f"{path}: numeric param without a documented range"
            yield path, (low, high), "integer" in types or prop.get("multipleOf") == 1


def in_range(text: str, bounds, integral: bool) -> bool:
    value = float(text)  # as the daemon reads it: a double (1e400 → inf, 1e-400 → 0)
    if value != value or value in (float("inf"), float("-inf")):
        return False
    if integral and value != int(value):
        return False
    low, high = bounds
    return low <= value <= high


def filler(schema: dict, name: str):
    """A valid value for a required property, so only the numeric one is wrong."""
    types = schema.get("type")
    types = types if isinstance(types, list) else [types]
    if "enum" in schema:
        return schema["enum"][0]
    if "string" in types:
        return UNREACHABLE if "url" in name.lower() else "x"
    if "array" in types:
        return [filler(schema.get("items", {"type": "string"}), name)]
    if "object" in types:
        return {k: filler(v, k) for k, v in (schema.get("properties") or {}).items() if k in schema.get("required", [])}
    if "integer" in types or "number" in types:
        return schema.get("minimum", 1)
    return None


def params_text(schema: dict, path: str, literal: str) -> str:
    """The params object as JSON text with `literal` spliced in at `path` (so 1e400 stays 1e400)."""
    params = filler(schema, "")
    marker = "@@NUMBER@@"
    node, node_schema = params, schema
    keys = path.split(".")
    for key in keys[:-1]:
        # A nested object gets its own required members, so only the number is wrong.
        node_schema = (node_schema.get("properties") or {}).get(key, {})
        node = node.setdefault(key, filler(node_schema, key) or {})
    node[keys[-1]] = marker
    return json.dumps(params).replace(json.dumps(marker), literal)


def requests_with_numbers():
    for schema_path in sorted(SCHEMA_DIR.glob("*.params.json")):
        # Schema names spell a method's slashes as dots (protocol_schema.py): textDocument.hover.
        name = schema_path.name[: -len(".params.json")]
        method = name.replace(".", "/")
        if method == "initialize" or not (SCHEMA_DIR / f"{name}.result.json").exists():
            continue  # initialize is tested below, one daemon per value; notifications get no answer
        schema = json.loads(schema_path.read_text())
        for path, bounds, integral in numeric_fields(schema):
            yield method, schema, path, bounds, integral


def run_lines(linkpeek_bin, tmp_path, lines: list[str], timeout: float = 60.0, expect: int | None = None,
              args: tuple = ("--allow-private-network",)):
    """Send ndjson lines and read answers until `expect` came (default: one per line that has an id), keeping
    stdin open meanwhile (end of input cancels what still runs); then close it. Returns (exit code, answers
    by id as JSON text, raw output lines, stderr)."""
    cache = tempfile.mkdtemp(prefix="cache-", dir=tmp_path)  # one each, also when run side by side
    if expect is None:
        expect = sum('"id"' in line for line in lines)
    proc = subprocess.Popen([linkpeek_bin, "serve", *args, "--cache-dir", str(cache)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out_lines: list[str] = []
    errors: list[bytes] = []
    reader = threading.Thread(target=lambda: out_lines.extend(l.decode() for l in proc.stdout), daemon=True)
    err_reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    reader.start()
    err_reader.start()
    try:
        proc.stdin.write("".join(line + "\n" for line in lines).encode())
        proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while len(out_lines) < expect and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.01)
        proc.stdin.close()
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    reader.join(10)
    err_reader.join(10)
    answers = {json.dumps(json.loads(raw).get("id")): json.loads(raw) for raw in out_lines}
    return code, answers, out_lines, b"".join(errors).decode("utf-8", "replace")


def check_answer(answer: dict, field: str, literal: str, expect_valid: bool):
    assert answer is not None, f"{field}={literal}: no answer"
    error = answer.get("error")
    leaf = field.split(".")[-1]
    if expect_valid:
        assert not (error and error["code"] == -32602 and leaf in error["message"]), \
            f"{field}={literal} is in range but was refused: {answer}"
    else:
        assert error and error["code"] == -32602, f"{field}={literal} is out of range but got {answer}"
        assert leaf in error["message"], f"{field}={literal}: the message does not name the field: {error}"


def test_every_numeric_param_of_every_method(linkpeek_bin, tmp_path):
    cases = list(requests_with_numbers())
    assert any(m == "fetch" and p == "timeout" for m, _, p, _, _ in cases), "fetch.timeout not found in the schemas"
    lines, expected = [], {}
    for method, schema, path, bounds, integral in cases:
        for literal in HOSTILE:
            rid = f"{method}:{path}:{literal}"
            lines.append(f'{{"jsonrpc":"2.0","id":{json.dumps(rid)},"method":"{method}",'
                         f'"params":{params_text(schema, path, literal)}}}')
            expected[json.dumps(rid)] = (path, literal, in_range(literal, bounds, integral))
    lines.append('{"jsonrpc":"2.0","id":"last","method":"getCached","params":{"url":"https://example.com/"}}')
    code, answers, _, stderr = run_lines(linkpeek_bin, tmp_path, lines, timeout=120)
    assert code == 0, f"daemon exited with {code}\n{stderr[-2000:]}"
    for rid, (path, literal, valid) in expected.items():
        check_answer(answers.get(rid), path, literal, valid)
    assert answers[json.dumps("last")]["result"] is None


def test_every_numeric_initialization_option(linkpeek_bin, tmp_path):
    schema = json.loads((SCHEMA_DIR / "initialize.params.json").read_text())
    fields = list(numeric_fields(schema))
    assert any(p.startswith("initializationOptions.") for p, _, _ in fields), "no numeric initializationOptions"

    def session(path: str, literal: str):
        init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":%s}' % params_text(schema, path, literal)
        # A fetch after it must be served with the options in effect, without a trap.
        follow = '{"jsonrpc":"2.0","id":2,"method":"fetch","params":{"url":"%s","timeout":5}}' % UNREACHABLE
        return run_lines(linkpeek_bin, tmp_path, [init, follow])

    # One daemon per value (initialize comes once a session), a few at a time: each mostly waits on its
    # own start, and one after another they took two minutes on a loaded 2-core machine.
    cases = [(path, bounds, integral, literal) for path, bounds, integral in fields for literal in HOSTILE]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(lambda case: session(case[0], case[3]), cases))
    for (path, bounds, integral, literal), (code, answers, _, stderr) in zip(cases, runs):
        assert code == 0, f"{path}={literal}: daemon exited with {code}\n{stderr[-2000:]}"
        check_answer(answers.get("1"), path, literal, in_range(literal, bounds, integral))
        assert "2" in answers, f"{path}={literal}: the fetch after initialize got no answer"


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_the_reported_crash_is_an_error_in_both_framings(linkpeek_bin, tmp_path, framing):
    body = '{"jsonrpc":"2.0","id":1,"method":"fetch","params":{"url":"%s","timeout":1e20}}' % UNREACHABLE
    data = body + "\n" if framing == "ndjson" else f"Content-Length: {len(body)}\r\n\r\n{body}"
    proc = subprocess.run([linkpeek_bin, "serve"], input=data.encode(), capture_output=True, timeout=30)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    answer = json.loads(proc.stdout.decode().split("\r\n\r\n")[-1])
    assert answer["error"]["code"] == -32602
    assert answer["error"]["message"] == "timeout must be a number from 0.001 to 3600 (seconds)"


def test_ids_are_echoed_exactly_as_written(linkpeek_bin, tmp_path):
    ids = ["-9223372036854775809", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
           "1e2", "100", "1.0", "1", "1e-400", "1e400", "1.5", "-0", '"1e2"', '""']
    lines = ['{"jsonrpc":"2.0","id":%s,"method":"getCached","params":{"url":"https://example.com/"}}' % i
             for i in ids]
    code, _, out, _ = run_lines(linkpeek_bin, tmp_path, lines, timeout=30, args=())
    assert code == 0
    assert all(line.startswith('{"id":') and '"result":null' in line for line in out), out
    echoed = sorted(line[len('{"id":'):line.index(',"jsonrpc"')] for line in out)
    # `-0` is the integer 0 by the grammar's reading, written back as 0.
    assert echoed == sorted(i if i != "-0" else "0" for i in ids), out


def wait_readable_eof(stream, timeout: float) -> float | None:
    """Seconds until `stream` reads end-of-file, or None past `timeout`."""
    start = time.monotonic()
    deadline = start + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([stream], [], [], left)
        if ready and not os.read(stream.fileno(), 65536):
            return time.monotonic() - start


@pytest.mark.parametrize("signo", [signal.SIGILL, signal.SIGSEGV, signal.SIGABRT])
def test_a_crash_closes_stdout_and_leaves_no_process(linkpeek_bin, tmp_path, signo):
    """A trap (SIGILL), a fault or an abort: the client reads end-of-file, the process ends with that
    signal, its stderr has the in-process backtrace, and no process it started is left (the runtime's
    backtracer, `swift-backtrace`, was one: it outlived the crashed daemon, blocked forever). The bounds
    are hang bounds only; the order and the outcome are the checks."""
    cache = tmp_path / "crash"
    cache.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "SWIFT_BACKTRACE"}
    proc = subprocess.Popen([linkpeek_bin, "serve", "--cache-dir", str(cache)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0, env=env)
    try:
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"getCached","params":{"url":"https://a.invalid/"}}\n')
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready and b'"id":1' in os.read(proc.stdout.fileno(), 65536)
        children_before = suite_guard.descendants(proc.pid)
        os.kill(proc.pid, signo)
        assert wait_readable_eof(proc.stdout, 30) is not None, "no end-of-file on stdout 30 s after the crash"
        code = proc.wait(timeout=30)
        assert code == -signo, f"exit code {code}, expected death by signal {signo}"
        stderr = proc.stderr.read().decode("utf-8", "replace")
        assert "linkpeek: crashed with " in stderr, stderr[-2000:]
        assert children_before == set(), f"the daemon had helper processes before the crash: {children_before}"
        # Anything the crash spawned was re-parented to this pytest (a child subreaper) when the daemon died.
        spawned = {pid for pid in suite_guard.descendants() if "swift-backtrace" in suite_guard._cmdline(pid)}
        assert not spawned, f"processes left by the crash: {[suite_guard._cmdline(p) for p in spawned]}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
