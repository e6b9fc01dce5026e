"""`make run` with no URL: linkpeek working in its first minute, with no internet.

Starts the sample site on 127.0.0.1 (sample_server.py), then shows:
  1. the terminal cards   `linkpeek fetch --format text URL…`
  2. the JSON             `linkpeek fetch --pretty URL`
  3. a daemon session     `linkpeek serve`: a fetch with progress and the partial
                          result, then an LSP hover on a Markdown line.
Everything is bounded in time; the server and the daemon are stopped by this
script. Usage: python3 Tests/demo/run_demo.py [--bin .build/debug/linkpeek]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "protocol" / "python"))

from sample_server import SampleServer  # noqa: E402
from linkpeek_client import LinkPeekClient  # noqa: E402

PRIVATE = "--allow-private-network"  # the sample site is on loopback, which linkpeek refuses by default


def heading(text: str) -> None:
    print(f"\n\033[1m== {text}\033[0m" if sys.stdout.isatty() else f"\n== {text}", flush=True)


def run(cmd: list) -> None:
    print("$ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, timeout=60, check=False)


def daemon_session(binary: str, site: SampleServer) -> None:
    slow = site.url("/slow")
    with LinkPeekClient(binary, args=[PRIVATE], timeout=20) as lp:
        print(f"→ fetch {slow}  (workDoneToken, partialResultToken)")
        meta = lp.fetch(slow,
                        on_progress=lambda v: print(f"← $/progress {v.get('kind'):6} {v.get('stage', '')} "
                                                    f"{v.get('bytes', 0)} bytes"),
                        on_partial=lambda m: print(f"← $/progress partial result: title {m.get('title')!r}"))
        print(f"← result: {meta.get('title')!r} from {meta.get('siteName')!r}")
        uri = "file:///demo/notes.md"
        line = f"Read {site.url('/article')} before the launch."
        print(f"→ textDocument/didOpen {uri}: {line!r}")
        lp.did_open(uri, line + "\n")
        print("→ textDocument/hover at line 0, character 8")
        hover = lp.hover(uri, 0, 8)
        card = hover["contents"]["value"] if hover else "(no card)"
        print("← hover card (Markdown):\n" + "\n".join("   " + row for row in card.splitlines()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=str(REPO / ".build" / "debug" / "linkpeek"))
    args = parser.parse_args()
    site = SampleServer().start()
    try:
        print(f"The sample site is at {site.url('/')} (pages written for this demo; no internet needed).")
        heading("1. Cards for the terminal: linkpeek fetch --format text")
        pages = [site.url(p) for p in ("/article", "/video", "/sjis")]
        run([args.bin, "fetch", PRIVATE, "--format", "text", *pages])
        heading("2. The same preview as JSON: linkpeek fetch --pretty")
        run([args.bin, "fetch", PRIVATE, "--pretty", "--no-subresources", site.url("/article")])
        heading("3. A daemon session: linkpeek serve (JSON-RPC over stdio, as editors use it)")
        daemon_session(args.bin, site)
        heading("4. A rule per site in the configuration file: linkpeek config explain")
        with tempfile.TemporaryDirectory(prefix="linkpeek-demo-") as directory:
            config = Path(directory) / "config.toml"
            config.write_text('[[site]]\nmatch = "127.0.0.1/article"\nuserAgent = "linkpeek-demo/1"\n'
                              'headers = { "X-Demo" = "yes" }\nfailureTTL = { notFound = 600 }\n')
            print(config.read_text(), end="", flush=True)
            run([args.bin, "config", "explain", "--config", str(config), site.url("/article")])
            run([args.bin, "fetch", PRIVATE, "--no-cache", "--format", "text", "--config", str(config), site.url("/article")])
        print("\nNext: make run URL=https://www.swift.org/   (a real page, over the internet)")
        return 0
    finally:
        site.stop()


if __name__ == "__main__":
    sys.exit(main())
