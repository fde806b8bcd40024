#!/usr/bin/env python3
"""odd-server.py — an HTTP server on 127.0.0.1 that is not xcbenchd but
answers JSON objects (tests/t-cli-odd-answer.sh): every request gets 200
with an object whose members are missing or of the wrong type, as another
service on the daemon's port (or a daemon of another version) might give.

  odd-server.py PORTFILE MODE   writes its port to PORTFILE once it
                                listens, then serves until killed
  MODE other:  {"status": "ok", "service": "not xcbenchd"} for everything
       typed:  the members the route's answer has, with one of the wrong
               type (by the request's method and path, ANSWERS below)
"""
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

OTHER = {"status": "ok", "service": "not xcbenchd"}

# (method, path regex, answer): the members of the real answer, one (or
# an element of one) wrongly typed.
ANSWERS = [
    ("GET", r"/api/v1/health", {"status": "ok", "open": True, "udp_port": "8080"}),
    ("GET", r"/api/v1/runs", {"runs": [{"id": "7", "status": "complete", "created": "x"}], "total": 1, "offset": 0}),
    ("POST", r"/api/v1/runs", {"run": {"id": None}}),
    ("GET", r"/api/v1/runs/\d+", {"run": {"id": 1, "status": "complete"}, "facts": {},
                                  "cases": [{"case_id": 1, "stats": []}], "errors": []}),
    ("PATCH", r"/api/v1/runs/\d+", {"run": {"id": 1, "tags": "a,b"}}),
    ("GET", r"/api/v1/runs/\d+/events", {"events": [{"text": 5}]}),
    ("GET", r"/api/v1/compare", {"cases": {}, "summary": {"cases": 0}, "unmatched_a": 0, "unmatched_b": 0,
                                 "fdr": 0.05, "min_effect_pct": 5}),
    ("GET", r"/api/v1/calibrate", {"boots": 4, "fdr": 0.05, "min_effect_pct": 5, "groups": {}, "pairs": [],
                                   "runs": []}),
    ("GET", r"/api/v1/baselines", {"baselines": [{"runs": "1,2"}]}),
    ("POST", r"/api/v1/baselines", {"baseline": "set"}),
    ("GET", r"/api/v1/jobs", {"jobs": [{"id": 1, "stage": None}]}),
    ("POST", r"/api/v1/jobs", {"job": {"id": 1, "mac": "52:54:00:00:00:01", "suite": 3, "stage": "queued"}}),
    ("GET", r"/api/v1/jobs/\d+", {"job": {"id": 1, "mac": "52:54:00:00:00:01", "stage": ["queued"]}}),
    ("POST", r"/api/v1/jobs/\d+/cancel", {"job": {"id": "1", "mac": "52:54:00:00:00:01", "stage": "failed"}}),
    ("GET", r"/api/v1/machines/[^/]+", {"machine": {"power": "manual"}}),
    ("PUT", r"/api/v1/machines/[^/]+/power", {"machine": {"power": {"driver": None}}}),
    ("POST", r"/api/v1/machines/[^/]+/power", {"result": 0}),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        body = OTHER
        if self.server.mode == "typed":
            path = self.path.split("?", 1)[0]
            for method, pat, b in ANSWERS:
                if method == self.command and re.fullmatch(pat, path):
                    body = b
                    break
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = answer

    def log_message(self, *args):
        pass


def main():
    srv = HTTPServer(("127.0.0.1", 0), Handler)
    srv.mode = sys.argv[2]
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(f"{srv.server_address[1]}\n")
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
