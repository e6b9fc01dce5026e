"""Check messages the daemon sent against protocol/schema (JSON Schema 2020-12, via `jsonschema`).

Layout (protocol/README.md): `message.json` (any one message), `error.json`,
`<method>.params.json` and `<method>.result.json` (`$/` dropped from the
method name, so `$/progress` → `progress.params.json`, and other slashes made
dots, so `textDocument/hover` → `textDocument.hover.result.json`). Each message — and
each element of a batch answer — is checked against `message.json`, its
params against the method's params schema, and a result against the result
schema of the request it answers (known from the ids the client sent).

When protocol/schema is absent nothing is checked (the callers say so).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SCHEMA_DIR = REPO / "protocol" / "schema"


def available() -> bool:
    return (SCHEMA_DIR / "message.json").is_file()


@lru_cache(maxsize=1)
def _schemas():
    import jsonschema
    from referencing import Registry, Resource

    docs = {p.name: json.loads(p.read_text()) for p in SCHEMA_DIR.glob("*.json")}
    registry = Registry().with_resources(
        (d.get("$id", name), Resource.from_contents(d)) for name, d in docs.items())
    validators = {}
    for name, d in docs.items():
        cls = jsonschema.validators.validator_for(d)
        cls.check_schema(d)
        validators[name] = cls(d, registry=registry)
    return validators


def _name(method: str) -> str:
    """`$/progress` → `progress`, `textDocument/hover` → `textDocument.hover`."""
    return (method[2:] if method.startswith("$/") else method).replace("/", ".")


def _problems(validator, instance, label: str) -> list:
    out = []
    for err in validator.iter_errors(instance):
        path = "/".join(map(str, err.absolute_path))
        out.append(f"{label}: {err.message[:300]} at /{path} in {json.dumps(instance)[:400]}")
    return out


def check_one(msg, method_of: dict) -> list:
    v = _schemas()
    problems = _problems(v["message.json"], msg, "message.json")
    if problems or not isinstance(msg, dict):
        return problems
    if "method" in msg:
        if "id" in msg and not isinstance(msg["id"], int):
            problems.append(f"the daemon's own request has a non-integer id: {msg}")
        schema = v.get(_name(msg["method"]) + ".params.json")
        if schema is None:
            problems.append(f"no schema for a method the daemon sent: {msg['method']}")
        elif "params" in msg:
            problems += _problems(schema, msg["params"], _name(msg["method"]) + ".params.json")
    elif "result" in msg:
        method = method_of.get(json.dumps(msg.get("id")))
        schema = v.get(_name(method) + ".result.json") if method else None
        if schema is not None:
            problems += _problems(schema, msg["result"], _name(method) + ".result.json")
    return problems


def check_list(messages: list, method_of: dict) -> list:
    """Problems (strings) for messages; method_of maps json.dumps(request id) -> the request's method."""
    if not available():
        return []
    problems = []
    for msg in messages:
        if isinstance(msg, list):
            if not msg:
                problems.append("an empty batch answer was sent")
            for m in msg:
                problems += check_one(m, method_of)
        else:
            problems += check_one(msg, method_of)
    return problems


def check_messages(client) -> list:
    """Check everything a LinkPeekClient received."""
    if not available():
        return []
    methods = {json.dumps(k): v for k, v in client._sent_methods.items()}
    return check_list(client.messages(), methods)
