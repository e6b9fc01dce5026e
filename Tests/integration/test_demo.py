"""`make run` with no URL: the offline demo (Tests/demo/run_demo.py) works and shows each part."""

from __future__ import annotations

import json
import re
import sys

from conftest import REPO, run_process


def test_offline_demo_shows_cards_json_and_a_daemon_session(linkpeek_bin):
    rc, out, err, elapsed, _ = run_process([sys.executable, str(REPO / "Tests" / "demo" / "run_demo.py"),
                                            "--bin", linkpeek_bin], timeout=60)
    text = out.decode()
    assert rc == 0, f"{text}\n{err.decode()[-2000:]}"
    cards, rest = text.split("== 2.", 1)
    json_part, session = rest.split("== 3.", 1)
    # 1. Terminal cards: the article, the video page, the Shift_JIS page decoded.
    port = re.search(r"http://127\.0\.0\.1:(\d+)/", cards).group(1)
    # The host as every card shows it: with its port when it is not the default.
    for line in ("Tide Tables for Small Harbours", f"The Quay Gazette · 127.0.0.1:{port}",
                 "Kite Launch at Dawn", "港の朝市：今週の旬の魚", f"港町だより · 127.0.0.1:{port}"):
        assert line in cards.splitlines(), f"{line!r} not a line of:\n{cards}"
    assert "\x1b[" not in cards  # no colours when stdout is not a terminal
    # 2. The JSON parses and has the article's Open Graph fields.
    body = json_part[json_part.index("{"): json_part.rindex("}") + 1]
    meta = json.loads(body)
    assert (meta["title"], meta["siteName"], meta["type"]) == ("Tide Tables for Small Harbours", "The Quay Gazette",
                                                              "article")
    assert meta["sources"]["title"] == "og:title"
    # 3. The session: progress begin … end, the partial title before the result, then a hover card.
    lines = session.splitlines()
    begin = next(i for i, l in enumerate(lines) if l.startswith("← $/progress begin"))
    partial = lines.index("← $/progress partial result: title 'A Page That Takes Its Time'")
    end = next(i for i, l in enumerate(lines) if l.startswith("← $/progress end"))
    result = lines.index("← result: 'A Page That Takes Its Time' from 'Slow Lane'")
    assert begin < partial < result and begin < end < result
    # The hover card's heading: the title in bold, not a link to the hovered URL.
    assert re.search(r"^   \*\*Tide Tables for Small Harbours\*\*$", session, re.M), session
