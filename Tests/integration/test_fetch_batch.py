"""`linkpeek fetch --stdin --concurrency 1` with the default cache: a batch
writes its cache entries together, behind the answers, yet each result line
comes out at once, and an entry is in the cache soon after, while the batch
still runs."""

from __future__ import annotations

import json
import os
import select
import sqlite3
import subprocess
import time


def read_line(proc, buffered: bytes, bound: float = 20) -> tuple[bytes, bytes]:
    """The next line linkpeek writes (bounded wait); (line, what was read after it)."""
    deadline = time.monotonic() + bound
    while b"\n" not in buffered:
        left = deadline - time.monotonic()
        assert left > 0, f"no result line within {bound} s (read so far: {buffered!r})"
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if not ready:
            continue
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, f"linkpeek closed its output early (read so far: {buffered!r})"
        buffered += chunk
    line, rest = buffered.split(b"\n", 1)
    return line, rest


def stored_urls(cache) -> set[str]:
    path = cache / "cache.sqlite"
    if not path.exists():
        return set()
    db = sqlite3.connect(path, timeout=10)
    try:
        return {url for (url,) in db.execute("SELECT originalURL FROM entry")}
    except sqlite3.OperationalError:  # the schema not made yet
        return set()
    finally:
        db.close()


def test_each_line_comes_before_the_next_url_is_sent(linkpeek_bin, server, tmp_path):
    # One URL at a time on a pipe kept open: each result is read before the
    # next URL is written. Had a line waited for its batch's write (the end
    # of the batch, or the write-behind delay), it would not come in time.
    cache = tmp_path / "cache"
    urls = [server.url(f"/page?title=batch{i}") for i in range(3)]
    proc = subprocess.Popen([linkpeek_bin, "fetch", "--stdin", "--concurrency", "1", "--no-subresources",
                             "--allow-private-network", "--cache-dir", str(cache), "--timeout", "10"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        buffered = b""
        for i, url in enumerate(urls):
            proc.stdin.write((url + "\n").encode())
            proc.stdin.flush()
            line, buffered = read_line(proc, buffered)
            result = json.loads(line)
            assert result["originalURL"] == url and result["title"] == f"batch{i}", result
            if i == 0:
                # Stdin still open, the batch still running: its entry is
                # written within the write-behind delay, not held to the end.
                deadline = time.monotonic() + 10
                while url not in stored_urls(cache):
                    assert time.monotonic() < deadline, "the first entry was not written while the batch ran"
                    time.sleep(0.05)
        proc.stdin.close()
        assert proc.wait(30) == 0
        assert proc.stdout.read() == b"" and buffered == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    # The rest are written by the end of the batch, before the process exits.
    assert stored_urls(cache) == set(urls)
