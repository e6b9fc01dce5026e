"""Fuzzes oEmbed and the wall detectors: mutated oEmbed answers,
`Link` headers, discovery links and wall pages, served from a replay tape
(`--replay`, no network) to `linkpeek fetch`, one process per case.

Each case writes a tape with four responses: the provider list's endpoint
for a YouTube URL (a mutated answer), the watch page itself (a page naming
a second endpoint in a mutated `<link>` and `Link` header, with a mutated
status and body: a challenge, a consent prompt, a login form), and that
second endpoint (another mutated answer). Mutations: truncation, splices,
byte flips, invalid UTF-8, numbers past any range (`1e400`, `-1`,
`"99999999999999999999"`), nesting 5,000 deep, 70 KB strings, control
characters, script and iframe soup in `html`. A case fails on a signal, a
run past its time bound, an exit code other than 0 or 1, or output that is
not one JSON object.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

import fuzzlib

sys.path.insert(0, str(fuzzlib.REPO / "Tests" / "integration"))
from procinfo import run_measured  # noqa: E402

TIME_BOUND = 10.0
PAGE_URL = "https://www.youtube.com/watch?v=abc"
LISTED = "https://www.youtube.com/oembed?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3Dabc&format=json"
DISCOVERED = "https://www.youtube.com/discovered?id=1"


def fnv(url: str) -> str:
    h = 0xcbf29ce484222325
    for b in url.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}.bin"


def base_answers() -> list[bytes]:
    video = {"type": "video", "version": "1.0", "title": "A video", "author_name": "Ann",
             "author_url": "https://a.test/ann", "provider_name": "P", "thumbnail_url": "https://i.test/t.jpg",
             "thumbnail_width": 480, "thumbnail_height": "360", "width": 640, "height": 360, "cache_age": 3600,
             "html": '<iframe src="https://p.test/embed/1" width="640"></iframe>'}
    photo = {"type": "photo", "url": "https://i.test/p.jpg", "width": "800", "height": 600, "title": "A photo"}
    rich = {"type": "rich", "html": "<blockquote>x</blockquote><script src='https://a.test/w.js'></script>",
            "author_name": "Bo", "cache_age": "1e400"}
    return [json.dumps(a).encode() for a in (video, photo, rich)] + [b"[]", b"{}", b"null"]


PIECES = [b"1e400", b"-1", b'"99999999999999999999"', b"[" * 5000, b'"' + b"x" * 70_000 + b'"', b"\x00", b"\xc3",
          b"\\u0000", b"\\ud800", b'"<iframe src=\\"https://a.test\\"><iframe src=\\"javascript:x\\"></iframe>"',
          b'"<IFRAME SRC=https://\xc4\xb0.test/></IFRAME>"', b"NaN", b"true", b"{" * 600]

WALLS = [
    (403, b"<html><head><title>Just a moment...</title></head><body><form id=challenge-form></form></body></html>"),
    (200, b"<title>Before you continue</title><form><button>Accept</button></form>"),
    (200, b"<form method=post><input name=u><input type='password'></form>"),
    (503, b"<p>verify you are human</p><div class=g-recaptcha></div>"),
    (200, b'<meta property="og:title" content="Own"><link rel="alternate" type="application/json+oembed" href="/d">'),
]


def mutate_answer(rng: random.Random, answers: list[bytes]) -> bytes:
    data = rng.choice(answers)
    kind = rng.randrange(4)
    if kind == 0:
        return fuzzlib.insert(rng, data, rng.choice(PIECES))
    if kind == 1:
        return fuzzlib.mutate_bytes(rng, data, answers)
    if kind == 2:
        return fuzzlib.truncate(rng, data)
    return data


def mutate_link(rng: random.Random) -> str:
    link = f'<{DISCOVERED}>; rel="alternate"; type="application/json+oembed"'
    raw = fuzzlib.mutate_bytes(rng, link.encode(), [b"<>;,\"=", b"rel=alternative", b", <x>; rel=alternate"])
    # A header value cannot carry a line break or NUL; everything else goes.
    return raw.decode("latin-1").replace("\r", " ").replace("\n", " ").replace("\x00", " ")


def write_tape(directory: Path, entries: list[tuple[str, int, dict, bytes, list]]) -> None:
    (directory / "bodies").mkdir(parents=True, exist_ok=True)
    index = []
    for url, status, headers, body, redirects in entries:
        name = "bodies/" + fnv(url)
        (directory / name).write_bytes(body)
        final = redirects[-1][0] if redirects else url
        index.append({"url": url, "finalURL": final, "status": status, "headers": headers,
                      "redirects": [{"url": u, "status": s} for u, s in ([(url, 302)] if redirects else [])],
                      "body": name, "bytesRead": len(body), "truncated": False})
    (directory / "index.json").write_text(json.dumps({"version": 1, "entries": index}))


def check(report: fuzzlib.Report, index, directory: Path, no_oembed: bool, saved: bytes) -> None:
    cmd = [fuzzlib.binary(), "fetch", "--replay", str(directory), "--no-subresources", PAGE_URL]
    if no_oembed:
        cmd.insert(2, "--no-oembed")
    m = run_measured(cmd, None, timeout=TIME_BOUND, poll=0.01)
    reason = fuzzlib.one_object_verdict(m, TIME_BOUND, exit_codes=(0, 1))
    if reason:
        report.fail(index, reason, saved, ".json")


def run(seconds: float, seed: int, max_cases: int | None = None) -> fuzzlib.Report:
    report = fuzzlib.Report("oembed", seed)
    rng = random.Random(seed)
    answers = base_answers()
    work = Path(tempfile.mkdtemp(prefix="fuzz-oembed-"))
    try:
        for path in fuzzlib.corpus("oembed"):
            case = json.loads(path.read_text())
            tape = work / f"corpus-{path.stem}"
            write_tape(tape, [(u, s, h, b.encode("latin-1"), r) for u, s, h, b, r in case["entries"]])
            check(report, path.name, tape, case.get("noOEmbed", False), path.read_bytes())
            report.corpus_cases += 1
        for index in fuzzlib.deadline_loop(seconds, max_cases):
            status, page = rng.choice(WALLS)
            page = fuzzlib.mutate_bytes(rng, page, [p for _, p in WALLS]) if rng.random() < 0.6 else page
            page += f'<link rel="{rng.choice(["alternate", "alternative", "ALTERNATE x"])}" ' \
                    f'type="application/json+oembed" href="{DISCOVERED}">'.encode()
            headers = {"content-type": "text/html; charset=utf-8", "link": mutate_link(rng)}
            if rng.random() < 0.3:
                headers["cf-mitigated"] = rng.choice(["challenge", "Challenge, x", "", "none"])
            redirects = [[rng.choice(["https://consent.youtube.com/ml", "https://www.youtube.com/accounts/login",
                                      "https://www.youtube.com/x"]), 302]] if rng.random() < 0.3 else []
            entries = [(LISTED, rng.choice([200, 200, 500, 404]), {"content-type": "application/json"},
                        mutate_answer(rng, answers), []),
                       (PAGE_URL, rng.choice([status, 200]), headers, page, redirects),
                       (DISCOVERED, 200, {"content-type": "application/json"}, mutate_answer(rng, answers), [])]
            tape = work / f"case-{index}"
            write_tape(tape, entries)
            saved = json.dumps({"noOEmbed": False, "entries": [
                (u, s, h, b.decode("latin-1"), r) for u, s, h, b, r in entries]}).encode()
            check(report, index, tape, rng.random() < 0.1, saved)
            shutil.rmtree(tape, ignore_errors=True)
            report.cases += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report
