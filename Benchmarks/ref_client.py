"""The reference client of bench_fetch.py: what a plain Python script does to
read a page's Open Graph title — `requests` fetches each whole page (gzip
decoded by urllib3), `lxml` parses it, an XPath picks `og:title`.

    python3 Benchmarks/ref_client.py [--concurrency N] < urls.txt

Prints one JSON line per URL: {"url", "status", "bytes", "ogTitle"}.
With N > 1, N threads, each with its own `requests.Session` (keep-alive),
take URLs from one queue.
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading

import requests
from lxml import html

OG_TITLE = 'string(//meta[@property="og:title"]/@content)'


def read(session: requests.Session, url: str) -> dict:
    response = session.get(url, timeout=30)
    tree = html.fromstring(response.content)
    return {"url": url, "status": response.status_code, "bytes": len(response.content),
            "ogTitle": tree.xpath(OG_TITLE) or None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--concurrency", type=int, default=1)
    args = ap.parse_args()
    urls = [line.strip() for line in sys.stdin if line.strip()]
    todo: queue.Queue = queue.Queue()
    for url in urls:
        todo.put(url)
    lock = threading.Lock()

    def work():
        with requests.Session() as session:
            while True:
                try:
                    url = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    line = json.dumps(read(session, url))
                except (requests.RequestException, ValueError) as error:
                    line = json.dumps({"url": url, "error": str(error)})
                with lock:
                    sys.stdout.write(line + "\n")

    threads = [threading.Thread(target=work) for _ in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
