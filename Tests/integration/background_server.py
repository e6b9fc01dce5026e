"""An http.server on 127.0.0.1 served from a daemon thread for the life of a
`with` block: shut down, closed and joined (bounded) on the way out."""
import threading


class BackgroundServer:
    def __init__(self, httpd, join_timeout=10):
        self.httpd = httpd
        self.port = httpd.server_address[1]
        self.join_timeout = join_timeout
        self.thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=self.join_timeout)


def respond(handler, status, body: bytes, ctype="text/html; charset=utf-8", headers=()):
    """One whole response from a `BaseHTTPRequestHandler`: the status, a
    Content-Type (none when `ctype` is empty), `headers` as (name, value)
    pairs, the length and the body. A client that left before the body is no
    error: linkpeek stops reading once it has what it needs. Handlers use it
    as their `send` method (`send = respond`)."""
    handler.send_response(status)
    if ctype:
        handler.send_header("Content-Type", ctype)
    for name, value in headers:
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    try:
        handler.wfile.write(body)
    except OSError:
        pass
