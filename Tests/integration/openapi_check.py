"""Checks replies of `serve --http` against protocol/openapi.json (OpenAPI 3.1,
whose schemas are JSON Schema 2020-12): the status is documented for the
path, a JSON body validates against the documented schema, and documented
headers (ETag, X-Cache, Retry-After…) validate too. `LinkMetadata` is the
daemon's own schema (protocol/schema), referenced, not copied."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
OPENAPI = REPO / "protocol" / "openapi.json"
SCHEMA_DIR = REPO / "protocol" / "schema"


@lru_cache(maxsize=1)
def document() -> dict:
    return json.loads(OPENAPI.read_text())


@lru_cache(maxsize=1)
def _registry():
    from referencing import Registry, Resource

    resources = [(f"schema/{p.name}", Resource.from_contents(json.loads(p.read_text())))
                 for p in SCHEMA_DIR.glob("*.json")]
    resources += [(json.loads(p.read_text()).get("$id", p.name), Resource.from_contents(json.loads(p.read_text())))
                  for p in SCHEMA_DIR.glob("*.json")]
    doc = dict(document())
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    resources.append(("openapi.json", Resource.from_contents(doc)))
    return Registry().with_resources(resources)


def validator(schema: dict):
    import jsonschema

    wrapped = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "openapi.json#check", **schema}
    if "$ref" in schema and schema["$ref"].startswith("#/"):
        wrapped["$ref"] = "openapi.json" + schema["$ref"]
    return jsonschema.Draft202012Validator(wrapped, registry=_registry())


def resolve(node: dict) -> dict:
    while "$ref" in node and node["$ref"].startswith("#/"):
        target = document()
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def problems(path: str, status: int, headers: dict, body: bytes) -> list[str]:
    """What in one reply the document does not allow (an empty list when all of it is documented)."""
    operation = document()["paths"].get(path, {}).get("get")
    if operation is None:
        return [] if status in (404, 405) else [f"{path}: not in protocol/openapi.json"]
    response = operation["responses"].get(str(status))
    if response is None:
        return [f"{path}: status {status} is not documented"]
    response = resolve(response)
    out = []
    for name, header in response.get("headers", {}).items():
        header = resolve(header)
        value = headers.get(name.lower())
        if value is None:
            out.append(f"{path} {status}: header {name} missing")
            continue
        schema = header.get("schema", {})
        instance = int(value) if schema.get("type") == "integer" and value.isdigit() else value
        for error in validator(schema).iter_errors(instance):
            out.append(f"{path} {status}: header {name}={value!r}: {error.message}")
    content = response.get("content", {})
    if "application/json" in content and body:
        schema = content["application/json"].get("schema", {})
        for error in validator(schema).iter_errors(json.loads(body)):
            out.append(f"{path} {status}: {error.message[:300]}")
    elif status != 304 and content and body:
        kind = headers.get("content-type", "").split(";")[0]
        if kind not in content:
            out.append(f"{path} {status}: content type {kind!r} is not documented")
    return out
