#!/usr/bin/env python3
"""A loopback origin of slides for scripts/deploy-standin and scripts/docker-standin.

Serves the files of one folder (GET and HEAD /NAME, no subfolders) on
127.0.0.1 only, over http and, for each --tls PORT:CERT:KEY, https, with
`Cache-Control: public, max-age=N`, a strong ETag (the file's SHA-256) and
`304 Not Modified` for a matching If-None-Match. Each request reads the file
again, so replacing a file changes the slide (and its ETag) at once. One line
per request goes to --log: `GET /a.png 200` or `GET /a.png 304`. It stops by
itself after --seconds.

    slide-origin.py --dir DIR --port N [--tls PORT:CERT:KEY]... [--max-age N] [--log FILE] [--seconds N]
"""
import argparse
import hashlib
import os
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp"}


def handler(folder, max_age, log):
    lock = threading.Lock()

    class Slides(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_HEAD(self):
            self.answer(body=False)

        def do_GET(self):
            self.answer(body=True)

        def answer(self, body):
            name = self.path.split("?", 1)[0].lstrip("/")
            path = os.path.join(folder, name)
            if not name or "/" in name or name.startswith(".") or not os.path.isfile(path):
                return self.finish_with(404, [("Content-Type", "text/plain")], b"not found\n", body)
            with open(path, "rb") as file:
                data = file.read()
            tag = '"%s"' % hashlib.sha256(data).hexdigest()[:32]
            headers = [("ETag", tag), ("Cache-Control", "public, max-age=%d" % max_age)]
            if tag in [t.strip() for t in self.headers.get("If-None-Match", "").split(",")]:
                return self.finish_with(304, headers, b"", False)
            content_type = TYPES.get(os.path.splitext(name)[1].lower(), "application/octet-stream")
            self.finish_with(200, headers + [("Content-Type", content_type)], data, body)

        def finish_with(self, status, headers, data, body):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if status != 304:
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)
            if log:
                with lock, open(log, "a") as file:
                    file.write("%s %s %d\n" % (self.command, self.path, status))

        def log_message(self, *args):
            pass

    return Slides


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls", action="append", default=[], metavar="PORT:CERT:KEY")
    parser.add_argument("--max-age", type=int, default=60)
    parser.add_argument("--log")
    parser.add_argument("--seconds", type=float, default=600)
    options = parser.parse_args()
    slides = handler(options.dir, options.max_age, options.log)
    servers = [ThreadingHTTPServer(("127.0.0.1", options.port), slides)]
    for spec in options.tls:
        port, cert, key = spec.split(":", 2)
        server = ThreadingHTTPServer(("127.0.0.1", int(port)), slides)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        servers.append(server)
    for server in servers:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print("slide-origin: serving %s on 127.0.0.1:%s" % (options.dir, ", ".join(str(s.server_address[1]) for s in servers)),
          file=sys.stderr, flush=True)
    threading.Event().wait(options.seconds)


if __name__ == "__main__":
    main()
