"""What a client written from protocol/README.md alone relies on: partial results resolved
against the final URL and free of guesses, the stage sequence, and shared transfers that presentation
flags do not split. Everything runs against a fixture server on 127.0.0.1."""

from __future__ import annotations

from urllib.parse import quote

from test_daemon import check_work_done, lp, sentinel, token_messages, uniq  # noqa: F401 (lp is a fixture)


def token_values(client, token) -> list:
    return [value for _, value in token_messages(client, token)]


def wait_token(client, token, pred, what: str, timeout: float = 20):
    """Waits, bounded, for a work-done value on `token` that satisfies `pred`."""
    try:
        client.wait_for(lambda m: isinstance(m, dict) and m.get("method") == "$/progress"
                        and m["params"].get("token") == token and pred(m["params"]["value"]), timeout)
    except TimeoutError:
        raise AssertionError(f"not within {timeout} s: {what}; seen on {token}: {token_values(client, token)}")


def stages_of(client, token) -> list:
    """The work-done values on `token`, checked against the documented sequence; their stages."""
    values = token_values(client, token)
    check_work_done(values)
    return [v["stage"] for v in values]


def test_partial_after_a_redirect_is_resolved_against_the_final_url(lp, server):
    u = uniq()
    final = server.url(f"/dir/sub/rel?u={u}")
    start = server.url(f"/redirect?status=302&to={quote(f'/dir/sub/rel?u={u}', safe='')}")
    fut = lp.fetch_async(start, work_done_token=f"wd-{u}", partial_result_token=f"pr-{u}")
    m = fut.result(timeout=30)
    sentinel(lp)  # anything sent on a token after the answer comes before the sentinel's answer
    partials = token_values(lp, f"pr-{u}")
    assert len(partials) == 1, partials
    p = partials[0]
    # `../pic.png` from /dir/sub/rel is /dir/pic.png; from /redirect it would be /pic.png.
    assert p["url"] == final, p
    assert p["image"]["url"] == server.url("/dir/pic.png?w=8&h=4"), p
    assert p["originalURL"] == start
    # The page declares no icon: the /favicon.ico guess is not in the partial …
    assert "icon" not in p and "icon" not in p.get("sources", {}), p
    # Nothing is verified before the image is fetched: the partial says so.
    assert p["richness"] == "text"
    assert not {"redirects", "bytesRead", "fetchedAt", "fromCache"} & p.keys(), p
    # … and the final answer has it only because it was fetched.
    assert m["url"] == final and m["image"]["url"] == p["image"]["url"]
    assert m["icon"]["url"] == server.url("/favicon.ico") and m["icon"]["bytes"] > 0, m["icon"]
    assert m["redirects"] == [{"url": start, "status": 302}]
    assert m["richness"] == "image" and m["image"]["bytes"] > 0, m
    stages = stages_of(lp, f"wd-{u}")
    assert stages[0] == "resolving", stages
    # "image runs beside the icon's, but is announced after it"; "end carries the last stage reached".
    assert stages[-1] == "image", stages


def test_a_partial_leaves_out_the_favicon_guess_even_without_subresources(lp, server):
    """The guess may 404 later, so the partial never shows it; a final answer without subresources marks it."""
    u = uniq()
    url = server.url(f"/dir/sub/rel?u={u}")
    fut = lp.fetch_async(url, partial_result_token=f"pr-{u}", fetch_subresources=False)
    m = fut.result(timeout=30)
    sentinel(lp)
    [p] = token_values(lp, f"pr-{u}")
    assert "icon" not in p, p
    # Without subresources the final answer keeps the guess, marked as one.
    assert m["icon"]["url"] == server.url("/favicon.ico")
    assert m["sources"]["icon"] == "favicon.ico fallback"


def test_stage_sequence_of_a_slow_page(lp, server):
    """A page that arrives in three parts 250 ms apart: every stage up to downloading is seen, in order."""
    u = uniq()
    fut = lp.fetch_async(server.url(f"/trickle?ms=250&title=t&u={u}"), work_done_token=f"wd-{u}")
    assert fut.result(timeout=30)["title"] == "t"
    sentinel(lp)
    stages = stages_of(lp, f"wd-{u}")
    assert stages[0] == "resolving", stages
    assert "downloading" in stages, stages


def test_presentation_flags_do_not_split_a_shared_transfer(lp, server):
    """Two fetches of one slow page, one with includeData and a partial token, one with neither: one page
    transfer, one image transfer, and each answer as it asked."""
    u = uniq()
    target = f"/held?key={u}&title=shared"
    url = server.url(target)
    images_before = server.hits("/img/og.png")
    a = lp.fetch_async(url, include_data=True, partial_result_token=f"pr-a-{u}", work_done_token=f"wd-a-{u}")
    # States, not pauses: A's page request is held at the server before B is sent, and B has joined A's
    # transfer (its token got the transfer's latest progress) before the page is let go.
    assert server.wait_in_flight(u, 1, 20), "A's page request never reached the server"
    b = lp.fetch_async(url, work_done_token=f"wd-b-{u}")
    wait_token(lp, f"wd-b-{u}", lambda v: True, "B joined A's transfer")
    server.release(u)
    ma, mb = a.result(timeout=30), b.result(timeout=30)
    sentinel(lp)
    assert server.hits(target) == 1, "the page was fetched twice"
    assert server.hits("/img/og.png") - images_before == 1, "the image was fetched twice"
    assert ma["title"] == mb["title"] == "shared"
    assert ma["image"]["data"] and ma["image"]["bytes"] > 0
    assert "data" not in mb["image"] and mb["image"]["bytes"] == ma["image"]["bytes"]
    assert len(token_values(lp, f"pr-a-{u}")) == 1


def test_a_caller_that_joins_after_the_bytes_were_left_out_gets_them(lp, server):
    """B asks for includeData while A's image fetch (without bytes) is running: B still shares the page
    transfer, and gets its bytes from a fetch of its own; A gets none."""
    u = uniq()
    target = f"/slow-image-page?hold={u}&u={u}"
    url = server.url(target)
    images_before = server.hits("/img/slow.png")
    a = lp.fetch_async(url, work_done_token=f"wd-a-{u}")
    # A's image request is held at the server until B has joined (B's token got the image stage).
    wait_token(lp, f"wd-a-{u}", lambda v: v.get("stage") == "image", "A reached its image stage")
    b = lp.fetch_async(url, include_data=True, work_done_token=f"wd-b-{u}")
    wait_token(lp, f"wd-b-{u}", lambda v: True, "B joined A's transfer")
    server.release(u)
    ma, mb = a.result(timeout=30), b.result(timeout=30)
    sentinel(lp)
    stages_of(lp, f"wd-b-{u}")  # B's own second image fetch does not send its stages backwards
    assert server.hits(target) == 1, "the page was fetched twice"
    assert server.hits("/img/slow.png") - images_before == 2, "B's bytes need a fetch of their own"
    assert "data" not in ma["image"]
    assert mb["image"]["data"] and mb["image"]["bytes"] == ma["image"]["bytes"]
