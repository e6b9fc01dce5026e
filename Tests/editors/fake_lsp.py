"""A language server that answers every hover with "fake hover: WORD-LINE-COL", for the
Neovim test of K without a link (the other server's hover, not linkpeek's). stdio, LSP
framing; exits on `exit` or end of input."""

from __future__ import annotations

import json
import sys


def read():
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    if length is None:
        return None
    return json.loads(sys.stdin.buffer.read(length))


def send(message):
    body = json.dumps(message).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def main():
    while (m := read()) is not None:
        method, rid = m.get("method"), m.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": rid, "result": {"capabilities": {"hoverProvider": True}}})
        elif method == "textDocument/hover":
            pos = m["params"]["position"]
            send({"jsonrpc": "2.0", "id": rid, "result": {
                "contents": {"kind": "plaintext", "value": f"fake hover at {pos['line']}:{pos['character']}"}}})
        elif method == "shutdown":
            send({"jsonrpc": "2.0", "id": rid, "result": None})
        elif method == "exit":
            return
        elif rid is not None:
            send({"jsonrpc": "2.0", "id": rid, "result": None})


if __name__ == "__main__":
    main()
