"""The persistent cache: HTTP freshness and revalidation, policies,
keys, saved links, several processes on one directory, kill -9, broken files.

Every daemon here runs on a cache directory the test made (tmp_path); the
fixture server counts hits per path and per conditional request.
"""

from __future__ import annotations

import html.parser
import json
import os
import random
import shlex
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from linkpeek_client import LinkPeekClient, LinkPeekError


def uniq() -> str:
    return uuid.uuid4().hex[:12]


@pytest.fixture
def daemon(make_client, tmp_path):
    """daemon(cache_dir=None, args=(), init_options=None) -> a started client on
    `cache_dir` (default: one directory shared by the test's daemons)."""

    def make(cache_dir=None, args=(), init_options=None):
        return make_client(cache_dir=cache_dir or tmp_path / "cache", args=args, init_options=init_options)

    return make


def cacheable(server, **state) -> str:
    ident = uniq()
    server.set_cacheable(ident, **state)
    return ident


def error_of(fn):
    with pytest.raises(LinkPeekError) as info:
        fn()
    return info.value


# ------------------------------------------------------------------ restart, revalidation, no-store


def test_restart_answers_from_disk_with_zero_hits(daemon, server, tmp_path):
    ident = cacheable(server, title="Persisted", etag='"p1"')
    url = server.url(f"/cacheable?id={ident}")
    first = daemon()
    m = first.fetch(url, fetch_subresources=False)
    assert m["title"] == "Persisted" and not m.get("fromCache")
    first.close()
    hits = server.hits(f"/cacheable?id={ident}")
    assert hits == 1

    second = daemon()
    cached = second.get_cached(url)
    assert cached is not None and cached["title"] == "Persisted" and cached["fromCache"] is True
    assert "stale" not in cached
    again = second.fetch(url, fetch_subresources=False)
    assert again["fromCache"] is True and again["title"] == "Persisted"
    assert server.hits(f"/cacheable?id={ident}") == hits, "the restarted daemon went to the network"


def test_stale_entry_is_revalidated_with_etag_and_304_refreshes_it(daemon, server):
    ident = cacheable(server, title="Version one", etag='"v1"', cache_control="max-age=60")
    url = server.url(f"/cacheable?id={ident}")
    path = f"/cacheable?id={ident}"
    daemon().fetch(url, fetch_subresources=False)
    assert server.hits(path) == 1

    # Two hours on (max-age=60 is clamped up to the 1 h minimum): stale, revalidated.
    later = daemon(args=["--clock-offset", "7200"])
    before_conditional, before_304 = server.conditional_hits(), server.not_modified_hits()
    m = later.fetch(url, fetch_subresources=False)
    assert server.conditional_hits() == before_conditional + 1
    assert server.not_modified_hits() == before_304 + 1
    assert m["title"] == "Version one" and m["fromCache"] is True
    sent = [h for p, h in server.headers_seen if p == path][-1]
    assert sent.get("If-None-Match") == '"v1"'
    # The 304 renewed the lifetime: the next fetch is a fresh hit, no request at all.
    hits = server.hits(path)
    assert later.fetch(url, fetch_subresources=False)["fromCache"] is True
    assert server.hits(path) == hits

    # The page changes: a 200 with a new ETag replaces the entry.
    server.set_cacheable(ident, title="Version two", etag='"v2"', cache_control="max-age=60")
    much_later = daemon(args=["--clock-offset", "30000"])
    m = much_later.fetch(url, fetch_subresources=False)
    assert m["title"] == "Version two" and not m.get("fromCache")
    assert much_later.get_cached(url)["title"] == "Version two"


def test_last_modified_revalidates_with_if_modified_since(daemon, server):
    stamp = "Tue, 14 Nov 2023 22:13:20 GMT"
    ident = cacheable(server, title="Dated", last_modified=stamp)
    url, path = server.url(f"/cacheable?id={ident}"), f"/cacheable?id={ident}"
    daemon().fetch(url, fetch_subresources=False)
    m = daemon(args=["--clock-offset", "200000"]).fetch(url, fetch_subresources=False)
    assert m["title"] == "Dated" and m["fromCache"] is True
    sent = [h for p, h in server.headers_seen if p == path][-1]
    assert sent.get("If-Modified-Since") == stamp and "If-None-Match" not in sent


def test_no_store_is_never_stored(daemon, server):
    ident = cacheable(server, title="Secret", cache_control="private, no-store")
    url, path = server.url(f"/cacheable?id={ident}"), f"/cacheable?id={ident}"
    lp = daemon()
    assert lp.fetch(url, fetch_subresources=False)["title"] == "Secret"
    assert lp.get_cached(url) is None
    assert not lp.fetch(url, fetch_subresources=False).get("fromCache")
    assert server.hits(path) == 2


def test_no_cache_is_stored_but_revalidated_on_every_use(daemon, server):
    ident = cacheable(server, title="Always check", etag='"nc"', cache_control="no-cache")
    url = server.url(f"/cacheable?id={ident}")
    lp = daemon()
    lp.fetch(url, fetch_subresources=False)
    cached = lp.get_cached(url)
    assert cached["title"] == "Always check" and cached["stale"] is True
    before = server.not_modified_hits()
    m = lp.fetch(url, fetch_subresources=False)
    assert m["fromCache"] is True and server.not_modified_hits() == before + 1


# ------------------------------------------------------------------ keys


def test_accept_language_makes_two_entries(daemon, server):
    url = server.url(f"/lang?u={uniq()}")
    lp = daemon()
    en = lp.fetch(url, fetch_subresources=False, accept_language="en")
    fr = lp.fetch(url, fetch_subresources=False, accept_language="fr")
    assert (en["title"], fr["title"]) == ("lang en", "lang fr")
    assert lp.fetch(url, fetch_subresources=False, accept_language="fr")["title"] == "lang fr"
    assert lp.fetch(url, fetch_subresources=False, accept_language="en")["title"] == "lang en"
    assert server.hits(url[len(server.base_url):]) == 2
    assert lp.get_cached(url, accept_language="fr")["title"] == "lang fr"
    assert lp.get_cached(url) is None


def test_one_normalisation_for_fetch_and_get_cached(daemon, server):
    u = uniq()
    lp = daemon()
    lp.fetch(server.url(f"/page?title=norm&u={u}#section"), fetch_subresources=False)
    spelled = f"HTTP://127.0.0.1:{server.port}/page?title=norm&u={u}"
    cached = lp.get_cached(spelled)
    assert cached is not None and cached["title"] == "norm" and cached["originalURL"] == spelled
    # The redirect target is reachable from the original key, and answers for itself.
    hop = server.url(f"/redirect?status=301&to=/page%3Ftitle%3Dhop%26u%3D{u}")
    m = lp.fetch(hop, fetch_subresources=False)
    final = m["url"]
    assert final != hop and lp.get_cached(final)["title"] == "hop"
    assert lp.get_cached(hop)["title"] == "hop"


# ------------------------------------------------------------------ policies, failures


def test_stale_while_revalidate_answers_at_once_then_refreshes(daemon, server):
    ident = cacheable(server, title="Old", etag='"o"')
    url = server.url(f"/cacheable?id={ident}")
    daemon().fetch(url, fetch_subresources=False)
    server.set_cacheable(ident, title="New", etag='"n"', delay_ms=5000)
    lp = daemon(args=["--clock-offset", "200000"])
    m = lp.fetch(url, cache_policy="staleWhileRevalidate", fetch_subresources=False)
    assert m["title"] == "Old" and m["stale"] is True and m["fromCache"] is True
    # Answered before the refresh landed (the server takes 5 s): the cache still has the old entry now.
    assert lp.get_cached(url)["title"] == "Old", "staleWhileRevalidate waited for the slow server"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        cached = lp.get_cached(url)
        if cached.get("title") == "New":
            break
        time.sleep(0.2)
    assert cached["title"] == "New" and "stale" not in cached
    assert lp.fetch(url, cache_policy="staleWhileRevalidate", fetch_subresources=False)["title"] == "New"


def test_cache_only_never_touches_the_network(daemon, server):
    lp = daemon()
    url = server.url(f"/page?title=only&u={uniq()}")
    e = error_of(lambda: lp.fetch(url, cache_policy="cacheOnly"))
    assert e.code == -32000 and e.reason == "notCached"
    assert server.hits(url[len(server.base_url):]) == 0
    lp.fetch(url, fetch_subresources=False)
    assert lp.fetch(url, cache_policy="cacheOnly")["fromCache"] is True


def test_failures_are_cached_and_marked(daemon, server):
    lp = daemon()
    url = server.url(f"/status/404?u={uniq()}")
    first = error_of(lambda: lp.fetch(url, fetch_subresources=False))
    assert first.data["reason"] == "httpStatus" and "fromCache" not in first.data
    second = error_of(lambda: lp.fetch(url, fetch_subresources=False))
    assert second.data["fromCache"] is True and second.data["status"] == 404
    cached = error_of(lambda: lp.get_cached(url))
    assert cached.code == -32000 and cached.data["fromCache"] is True
    assert server.hits(url[len(server.base_url):]) == 1
    # reload ignores the failure cache.
    error_of(lambda: lp.fetch(url, cache_policy="reload", fetch_subresources=False))
    assert server.hits(url[len(server.base_url):]) == 2


def test_cache_dir_null_keeps_everything_in_memory(daemon, server, tmp_path):
    cache = tmp_path / "unused"
    lp = daemon(cache_dir=cache, init_options={"cacheDir": None})
    url = server.url(f"/page?title=mem&u={uniq()}")
    lp.fetch(url, fetch_subresources=False)
    assert lp.get_cached(url)["title"] == "mem"
    assert lp.save(url)["savedAt"]
    assert not (cache / "cache.sqlite").exists()


# ------------------------------------------------------------------ saved links


def test_saved_links_over_the_daemon(daemon, server):
    lp = daemon()
    urls = [server.url(f"/page?title=s{i}&u={uniq()}") for i in range(3)]
    for i, url in enumerate(urls):
        saved = lp.save(url, tags=["all", f"t{i}", "odd <&\"'> ✓"])
        assert saved["title"] == f"s{i}" and saved["savedAt"] and "all" in saved["tags"]
        time.sleep(0.01)
    listed = lp.saved()
    assert [m["originalURL"] for m in listed] == list(reversed(urls))
    assert [m["title"] for m in lp.saved(tag="t1")] == ["s1"]
    assert len(lp.saved(limit=1, offset=1)) == 1
    e = error_of(lambda: lp.saved(limit=-1))
    assert e.code == -32602 and e.message == "limit must be an integer from 0 to 100000"
    e = error_of(lambda: lp.save(urls[0], tags=["bad\ntag"]))
    assert e.code == -32602 and "tags" in e.message
    assert lp.unsave(urls[0]) is True and lp.unsave(urls[0]) is False
    assert len(lp.saved()) == 2
    lp.close()
    assert [m["title"] for m in daemon().saved()] == ["s2", "s1"]


def test_cli_saved_export_is_a_bookmark_file(run_cli, server, tmp_path):
    cache = str(tmp_path / "cli-cache")
    urls = [server.url(f"/page?title=B{i}%20%3C%26%3E&u={uniq()}") for i in range(3)]
    res = run_cli("saved", "add", "--allow-private-network", "--cache-dir", cache, *urls,
                  "--tag", "x,y", "--tag", '<"tag">')
    assert res.returncode == 0, res.describe()
    assert all(o["savedAt"] for o in res.objects)

    class Bookmarks(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.links = []

        def handle_starttag(self, tag, attrs):
            if tag == "a":
                self.links.append(dict(attrs))

    out = run_cli("saved", "export", "--format", "html", "--cache-dir", cache, parse=False)
    assert out.returncode == 0 and out.stdout.startswith("<!DOCTYPE NETSCAPE-Bookmark-file-1>")
    parser = Bookmarks()
    parser.feed(out.stdout)
    assert sorted(link["href"] for link in parser.links) == sorted(urls)
    assert all(link["tags"] == '<"tag">,x y' for link in parser.links)  # tags sorted
    assert "<&>" not in out.stdout and "B0 &lt;&amp;&gt;" in out.stdout
    jsonl = run_cli("saved", "export", "--format", "jsonl", "--cache-dir", cache)
    assert sorted(o["originalURL"] for o in jsonl.objects) == sorted(urls)
    assert run_cli("saved", "remove", "--cache-dir", cache, urls[0], parse=False).returncode == 0
    assert run_cli("saved", "remove", "--cache-dir", cache, urls[0], parse=False).returncode == 1
    listed = run_cli("saved", "list", "--json", "--cache-dir", cache)
    assert len(listed.objects) == 2


def test_cli_fetch_uses_the_same_cache_and_cache_commands(run_cli, fetch, server, tmp_path):
    cache = str(tmp_path / "shared")
    path = f"/page?title=cli&u={uniq()}"
    first = fetch(server.url(path), "--cache-dir", cache, "--no-subresources")
    assert first.one["title"] == "cli" and not first.one.get("fromCache")
    second = fetch(server.url(path), "--cache-dir", cache, "--no-subresources")
    assert second.one["fromCache"] is True and server.hits(path) == 1
    reload = fetch(server.url(path), "--cache-dir", cache, "--no-subresources", "--cache-policy", "reload")
    assert not reload.one.get("fromCache") and server.hits(path) == 2
    got = run_cli("cache", "get", "--cache-dir", cache, server.url(path))
    assert got.returncode == 0 and got.one["title"] == "cli"
    missing = run_cli("cache", "get", "--cache-dir", cache, server.url("/nothing-here"), parse=False)
    assert missing.returncode == 1 and missing.stdout == ""
    stats = run_cli("cache", "stats", "--json", "--cache-dir", cache)
    assert stats.one["entries"] == 1 and stats.one["location"].endswith("cache.sqlite")
    assert run_cli("cache", "prune", "--cache-dir", cache, parse=False).returncode == 0
    assert run_cli("cache", "clear", "--cache-dir", cache, parse=False).stdout == "removed 1 entries\n"
    assert run_cli("cache", "get", "--cache-dir", cache, server.url(path), parse=False).returncode == 1
    bad = run_cli("fetch", "--cache-size=0.5", server.url(path), parse=False)
    assert bad.returncode == 2 and "--cache-size must be an integer from 1 to 1048576 (MiB)" in bad.stderr


def test_a_cli_batch_stores_every_preview_before_it_exits(run_cli, server, tmp_path):
    """`fetch --stdin` writes its previews behind, many in one transaction,
    and the process writes the last of them before it exits: another
    process finds every one."""
    cache = str(tmp_path / "batch")
    u = uniq()
    urls = [server.url(f"/page?title=b{i}&u={u}") for i in range(120)]
    # A slow first page keeps the burst going while the others end.
    slow = server.url(f"/slow?ms=400&title=slow&u={u}")
    res = run_cli("fetch", "--stdin", "--allow-private-network", "--no-subresources", "--concurrency", "16",
                  "--cache-dir", cache, stdin="\n".join([slow, *urls]) + "\n")
    assert res.returncode == 0 and len(res.objects) == 121, res.describe()
    stats = run_cli("cache", "stats", "--json", "--cache-dir", cache)
    assert stats.one["entries"] == 121, stats.describe()
    for i in (0, 59, 119):
        got = run_cli("cache", "get", "--cache-dir", cache, urls[i])
        assert got.returncode == 0 and got.one["title"] == f"b{i}", got.describe()


# ------------------------------------------------------------------ broken files, processes


@pytest.mark.parametrize("content", [b"definitely not sqlite" * 10, b"SQLite format 3\x00" + b"\x10\x00" + b"\x00" * 82])
def test_a_broken_database_is_moved_aside_and_the_daemon_serves(daemon, server, tmp_path, content):
    cache = tmp_path / "broken"
    cache.mkdir()
    (cache / "cache.sqlite").write_bytes(content)
    lp = daemon(cache_dir=cache)
    url = server.url(f"/page?title=fine&u={uniq()}")
    assert lp.fetch(url, fetch_subresources=False)["title"] == "fine"
    assert lp.get_cached(url)["title"] == "fine"
    lp.close()
    aside = [p.name for p in cache.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1, list(cache.iterdir())
    said = [line for line in lp.stderr_tail if "moved it aside" in line]
    assert len(said) == 1, list(lp.stderr_tail)


def test_a_database_from_a_future_schema_is_moved_aside_not_downgraded(daemon, server, tmp_path):
    cache = tmp_path / "future"
    first = daemon(cache_dir=cache)
    first.fetch(server.url(f"/page?title=old&u={uniq()}"), fetch_subresources=False)
    first.close()
    import sqlite3
    db = sqlite3.connect(cache / "cache.sqlite")
    db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
    db.commit()
    db.close()
    lp = daemon(cache_dir=cache)
    url = server.url(f"/page?title=new&u={uniq()}")
    assert lp.fetch(url, fetch_subresources=False)["title"] == "new"
    lp.close()
    aside = [p for p in cache.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1
    migrations = sqlite3.connect(aside[0]).execute("SELECT identifier FROM grdb_migrations").fetchall()
    assert ("v99-from-the-future",) in migrations, "the newer database was changed"
    assert [line for line in lp.stderr_tail if "newer linkpeek" in line]


def test_a_damaged_entry_is_never_sent_as_is_and_is_dropped(daemon, server, tmp_path):
    cache = tmp_path / "damaged"
    url = server.url(f"/page?title=whole&u={uniq()}")
    first = daemon(cache_dir=cache)
    assert first.fetch(url, fetch_subresources=False)["title"] == "whole"
    first.close()
    import sqlite3
    db = sqlite3.connect(cache / "cache.sqlite")
    assert db.execute("UPDATE entry SET body = substr(body, 1, 20)").rowcount == 1
    db.commit()
    db.close()
    lp = daemon(cache_dir=cache, args=("--log-level", "info"))
    # Fresh and asked for as stored, the row would be answered as its bytes: not when they are not JSON.
    assert lp.get_cached(url) is None
    # Dropped behind the answer (bounded wait), so the fetch below finds nothing to refuse again.
    deadline = time.monotonic() + 5
    while sqlite3.connect(cache / "cache.sqlite").execute("SELECT count(*) FROM entry").fetchone()[0] and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    again = lp.fetch(url, fetch_subresources=False)
    assert again["title"] == "whole" and not again.get("fromCache"), again
    lp.close()
    said = [line for line in lp.stderr_tail if line.startswith("linkpeek info: cache entry unreadable; dropped")]
    assert len(said) == 1 and "error=not JSON" in said[0], list(lp.stderr_tail)
    # The fetch stored a whole entry in its place.
    body = sqlite3.connect(cache / "cache.sqlite").execute("SELECT body FROM entry").fetchall()
    assert len(body) == 1 and json.loads(body[0][0])["title"] == "whole"


def test_kill_9_during_writes_leaves_only_whole_entries(linkpeek_bin, daemon, server, tmp_path):
    cache = tmp_path / "killed"
    u = uniq()
    urls = [server.url(f"/page?title=k{i}&u={u}") for i in range(1000)]
    proc = subprocess.Popen([linkpeek_bin, "serve", "--cache-dir", str(cache), "--allow-private-network"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        lines = b"".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "fetch",
                                     "params": {"url": url, "fetchSubresources": False}}).encode() + b"\n"
                         for i, url in enumerate(urls))
        proc.stdin.write(lines)
        proc.stdin.flush()
        answered = 0
        deadline = time.monotonic() + 60
        while answered < 300 and time.monotonic() < deadline:
            if not proc.stdout.readline():
                break
            answered += 1
        assert answered >= 300, f"only {answered} answers before the kill"
    finally:
        proc.kill()  # SIGKILL, our own child by its pid
        proc.wait(timeout=10)
    lp = daemon(cache_dir=cache)
    found = 0
    for i, url in enumerate(urls):
        m = lp.get_cached(url)
        if m is not None:
            assert m["title"] == f"k{i}" and m["fromCache"] is True
            found += 1
    assert found >= 300, f"{found} entries survived, {answered} were answered"
    assert not [p for p in cache.iterdir() if ".corrupt-" in p.name]
    # Every entry getCached returned was checked against LinkMetadata.json at teardown.


def test_two_daemons_and_a_cli_loop_share_one_directory(linkpeek_bin, daemon, server, tmp_path, run_cli):
    """Two daemons fetch and save while CLI runs fetch and save, all on one
    cache directory, for LINKPEEK_SOAK_SECONDS (default 30, as the issue asks): no error, every
    entry readable afterwards, every save present."""
    seconds = float(os.environ.get("LINKPEEK_SOAK_SECONDS", "30"))
    seed = int(os.environ["LINKPEEK_SEED"])  # fixed by suite_guard unless given; printed with a failure
    print(f"soak {seconds}s, seed {seed}")
    rng = random.Random(seed)
    cache = tmp_path / "shared"
    daemons = [daemon(cache_dir=cache), daemon(cache_dir=cache)]
    fetched, saved, errors = [], [], []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def daemon_loop(lp, name):
        n = 0
        while time.monotonic() < stop:
            url = server.url(f"/page?title={name}-{n}&u={rng.randrange(1 << 40)}")
            try:
                lp.fetch(url, fetch_subresources=False)
                if n % 3 == 0:
                    lp.save(url, tags=[name])
                    with lock:
                        saved.append(url)
                with lock:
                    fetched.append(url)
            except Exception as e:  # noqa: BLE001 - every error is a failure here
                with lock:
                    errors.append(f"{name}: {e!r}")
            n += 1

    def cli_loop():
        n = 0
        while time.monotonic() < stop:
            url = server.url(f"/page?title=cli-{n}&u={rng.randrange(1 << 40)}")
            res = run_cli("saved", "add", "--allow-private-network", "--cache-dir", str(cache), url, "--tag", "cli")
            with lock:
                if res.returncode != 0 or "locked" in res.stderr:
                    errors.append("cli: " + res.describe())
                else:
                    saved.append(url)
                    fetched.append(url)
            n += 1

    threads = [threading.Thread(target=daemon_loop, args=(lp, f"d{i}")) for i, lp in enumerate(daemons)]
    threads.append(threading.Thread(target=cli_loop))
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    assert not errors, errors[:5]
    assert len(fetched) > 20 and len(saved) > 5
    said = [line for lp in daemons for line in lp.stderr_tail if "locked" in line or " warning: " in line]
    assert not said, said[:5]
    checker = daemon(cache_dir=cache)
    missing = [url for url in fetched if checker.get_cached(url) is None]
    assert not missing, f"{len(missing)} of {len(fetched)} entries unreadable, e.g. {missing[:3]}"
    saved_now = {m["originalURL"] for m in checker.saved()}
    assert set(saved) <= saved_now, f"lost saves: {sorted(set(saved) - saved_now)[:3]}"
    for lp in daemons + [checker]:
        assert not [line for line in lp.stderr_tail if "locked" in line or " warning: " in line], list(lp.stderr_tail)


def test_huge_urls_are_refused_by_name(daemon, run_cli):
    lp = daemon()
    url = "http://example.com/" + "a" * 100_000
    for call in (lambda: lp.fetch(url), lambda: lp.get_cached(url), lambda: lp.save(url), lambda: lp.unsave(url)):
        e = error_of(call)
        assert e.code == -32602 and e.message == "url must be at most 65536 bytes"
    res = run_cli("fetch", "--no-cache", url)
    assert res.returncode == 1 and res.one["error"]["reason"] == "invalidURL"


def test_cache_stats_shows_a_running_daemons_hit_rate(daemon, run_cli, server, tmp_path):
    cache = tmp_path / "rate"
    lp = daemon(cache_dir=cache)
    url = server.url(f"/page?title=rate&u={uniq()}")
    lp.fetch(url, fetch_subresources=False)           # a miss
    for _ in range(3):
        assert lp.get_cached(url)["title"] == "rate"  # hits
    deadline = time.monotonic() + 10                  # reports are written at most every 2 s
    while time.monotonic() < deadline:
        stats = run_cli("cache", "stats", "--json", "--cache-dir", str(cache)).one
        mine = [d for d in stats.get("daemons", []) if d["pid"] == lp.pid]
        if mine and mine[0]["hits"] == 3:
            break
        time.sleep(0.3)
    assert mine and (mine[0]["hits"], mine[0]["misses"]) == (3, 1), stats
    lp.close()
    after = run_cli("cache", "stats", "--json", "--cache-dir", str(cache)).one
    assert not [d for d in after.get("daemons", []) if d["pid"] == lp.pid], "an exited daemon is still listed"


def test_a_full_disk_keeps_the_daemon_serving_and_says_so_once(linkpeek_bin, server, tmp_path):
    """The file-size limit (ulimit -f, with SIGXFSZ ignored) makes every write
    past 512 KiB fail as a full disk does (EFBIG): fetches still succeed from
    the network, answers stay in memory, and stderr says so once."""
    cache = tmp_path / "full"
    script = (f'trap "" XFSZ; ulimit -f 512; exec "$0" serve --cache-dir {shlex.quote(str(cache))} '
              f'--allow-private-network')
    u = uniq()
    urls = [server.url(f"/page?title=full{i}&u={u}&pad={'p' * 3000}") for i in range(300)]
    with LinkPeekClient(command=["bash", "-c", script, linkpeek_bin]) as lp:
        for url in urls:
            assert lp.fetch(url, fetch_subresources=False)["title"].startswith("full")
        assert all(lp.get_cached(url) is not None for url in urls[-50:])
        said = [line for line in lp.stderr_tail if "cannot write" in line]
    assert len(said) == 1, list(lp.stderr_tail)
    assert "serving from the network and memory" in said[0]


@pytest.mark.parametrize("code, lifetime", [(500, 120), (404, 600)])
def test_failure_lifetimes_are_absolute(daemon, server, code, lifetime):
    """A failure is kept for its reason's lifetime (5xx 2 min, other statuses 10 min), on the cache's clock:
    10 s before it ends a daemon answers from the failure cache, 10 s after it asks the network again."""
    path = f"/status/{code}?u={uniq()}"
    url = server.url(path)
    error_of(lambda: daemon().fetch(url, fetch_subresources=False))
    assert server.hits(path) == 1
    before = error_of(lambda: daemon(args=["--clock-offset", str(lifetime - 10)]).fetch(url, fetch_subresources=False))
    assert before.data["fromCache"] is True and before.data["status"] == code
    assert server.hits(path) == 1
    after = error_of(lambda: daemon(args=["--clock-offset", str(lifetime + 10)]).fetch(url, fetch_subresources=False))
    assert "fromCache" not in after.data and after.data["status"] == code
    assert server.hits(path) == 2
