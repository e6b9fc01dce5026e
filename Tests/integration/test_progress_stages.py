"""Progress stages true to what the transfer is doing: taken from
libcurl's own timing, so a fetch on a kept-alive connection does not stay at
`resolving` while the server thinks. The server here records the client port
of each request, so the test knows whether the connection was reused.
"""

from __future__ import annotations

import threading

import pytest

from fixture_server import FixtureServer, page_html

ORDER = ["resolving", "connecting", "waiting", "downloading", "parsing", "icon", "image"]


@pytest.fixture
def port_server():
    """A fixture server of the test's own; /think?ms=N waits N ms before answering, recording the client port."""
    server = FixtureServer().start()
    server.ports = []
    lock = threading.Lock()

    def think(h, path, q):
        with lock:
            server.ports.append(h.client_address[1])
        h.wait_or_client_gone(int(q("ms", "0")) / 1000.0)
        h.send(200, page_html(h.base, q("title", "Thought")).encode())

    server.add_route("/think", think)
    yield server
    server.stop()


def stages(c, token: str) -> list:
    return [m["params"]["value"].get("stage") for m in c.messages()
            if m.get("method") == "$/progress" and m["params"]["token"] == token]


def check_order(seen: list):
    ranks = [ORDER.index(s) for s in seen]
    assert ranks == sorted(ranks), f"stages out of order: {seen}"


def test_a_reused_connection_reports_waiting_while_the_server_thinks(make_client, port_server):
    c = make_client(timeout=30)
    c.fetch(port_server.url("/think?ms=0&title=Warm"), fetch_subresources=False)
    fut = c.fetch_async(port_server.url("/think?ms=1500&title=Slow"), work_done_token="wd-reused",
                        fetch_subresources=False)
    assert fut.result(timeout=30)["title"] == "Slow"
    assert port_server.ports[0] == port_server.ports[1], f"not reused: {port_server.ports}"
    seen = stages(c, "wd-reused")
    check_order(seen)
    # No lookup or connect happened: the 1.5 s wait is `waiting`, not `resolving`.
    assert "connecting" not in seen, seen
    assert "waiting" in seen and seen.index("waiting") < seen.index("downloading"), seen


def test_a_new_connection_reports_connecting_then_waiting(make_client, port_server):
    c = make_client(timeout=30)
    fut = c.fetch_async(port_server.url("/think?ms=800&title=Fresh"), work_done_token="wd-fresh",
                        fetch_subresources=False)
    assert fut.result(timeout=30)["title"] == "Fresh"
    seen = stages(c, "wd-fresh")
    check_order(seen)
    assert seen[0] == "resolving", seen
    assert "waiting" in seen and "downloading" in seen, seen
