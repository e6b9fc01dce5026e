"""The suites run where the internet cannot be reached (Tests/sandbox.py: a
network namespace with only `lo`), so that a test that tries a public address
fails at once and visibly instead of passing on a machine that happens to be
online. These tests prove the sandbox is there and does what it says; they
never send anything before they have checked that nothing can leave."""

from __future__ import annotations

import socket

import pytest

import sandbox
from conftest import assert_error
from suite_guard import require_sandbox

# A public name and a public address: inside the sandbox neither can be reached, which is the point.
PUBLIC_NAME_URL = "https://www.example.com/"
PUBLIC_ADDRESS = "93.184.215.14"


def test_only_loopback_exists_here():
    require_sandbox()
    assert sandbox.interfaces() == ["lo"], f"interfaces in the test namespace: {sandbox.interfaces()}"
    assert sandbox.loopback_up(), "lo is down: the fixture servers on 127.0.0.1 could not be reached"


def test_a_public_name_fails_with_dns(fetch):
    require_sandbox()
    res = fetch(PUBLIC_NAME_URL, "--no-cache", "--timeout", "20", private=False)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "dns", res)


def test_a_public_address_fails_with_connect(fetch):
    """The name given an address with --resolve (so no DNS is asked): the connect itself fails, as there
    is no route out of the namespace."""
    require_sandbox()
    res = fetch(PUBLIC_NAME_URL, "--no-cache", "--timeout", "20", "--resolve", f"www.example.com:443:{PUBLIC_ADDRESS}",
                private=False)
    assert res.returncode == 1, res.describe()
    assert_error(res.one, "failed", "connect", res)


def test_a_socket_to_a_public_address_is_refused_by_the_kernel():
    """Below linkpeek too: a plain connect has no route, at once (no timeout to wait out)."""
    require_sandbox()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        with pytest.raises(OSError) as raised:
            s.connect((PUBLIC_ADDRESS, 443))
    assert raised.value.errno == 101, f"expected ENETUNREACH (101), got {raised.value!r}"
