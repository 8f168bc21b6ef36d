#!/usr/bin/env python3
"""The TypeScript/JavaScript harness of the SDP benchmark suite in headless
Chromium: bench/ts/core.mjs (the measurements Node runs in bench/ts) in a
page (page.html) served over HTTP with cross-origin isolation (so that
performance.now() has 5 us steps), on the same generated packages and data.
node-cbor is not measured here (a Node module); JSON, the floors and SDP are.

Usage: run.py --gen DIR --chromium PATH --workloads bench/workloads.tsv
       --data bench/build/data [--quick] [--only a,b] [--impls sdp,json] [--out FILE]
"""

import argparse
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
TS = os.path.join(os.path.dirname(HERE), "ts")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--workloads", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--impls", default="")
    ap.add_argument("--out")
    a = ap.parse_args()
    only = set(x for x in a.only.split(",") if x)
    workloads = []
    with open(a.workloads) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            if only and c[0] not in only:
                continue
            workloads.append(dict(name=c[0], schema=c[1], type=c[2], kind=c[4]))
    config = json.dumps(dict(workloads=workloads, quick=a.quick, impls=[x for x in a.impls.split(",") if x])).encode()
    done = threading.Event()
    got = {}
    roots = {"/gen/": a.gen, "/data/": a.data}
    files = {"/": os.path.join(HERE, "page.html"), "/core.mjs": os.path.join(TS, "core.mjs")}

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send(self, body, ctype):
            self.send_response(200)
            self.send_header("content-type", ctype)
            self.send_header("content-length", str(len(body)))
            self.send_header("cross-origin-opener-policy", "same-origin")
            self.send_header("cross-origin-embedder-policy", "require-corp")
            self.send_header("cache-control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/config":
                return self.send(config, "application/json")
            fn = files.get(path)
            for prefix, root in roots.items():
                if path.startswith(prefix):
                    rel = os.path.normpath(path[len(prefix):])
                    if not rel.startswith(".."):
                        fn = os.path.join(root, rel)
            if fn is None or not os.path.isfile(fn):
                self.send_response(404)
                self.end_headers()
                return
            ctype = {".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript",
                     ".json": "application/json"}.get(os.path.splitext(fn)[1], "application/octet-stream")
            with open(fn, "rb") as f:
                self.send(f.read(), ctype)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            got.update(json.loads(body))
            self.send(b"ok", "text/plain")
            done.set()

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{srv.server_address[1]}/"
    with tempfile.TemporaryDirectory(prefix="sdp-bench-chromium") as profile:
        version = subprocess.run([a.chromium, "--version"], capture_output=True, text=True).stdout.strip()
        proc = subprocess.Popen([a.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                 "--user-data-dir=" + profile, url],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            ok = done.wait(timeout=3600)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    srv.shutdown()
    if not ok or "error" in got:
        print("bench-tschromium: " + (got.get("error") or "the page sent no results within an hour"), file=sys.stderr)
        sys.exit(1)
    out = {"language": "tschromium", "toolchain": f"{version} ({got.get('userAgent', '')}; timer {got.get('timerResolution', '')})",
           "quick": a.quick, "results": got["results"],
           "gaps": [{"impl": "cbor", "workload": "", "reason": "not measured: node-cbor is a Node module"},
                    {"impl": "protobufjs", "workload": "", "reason": "not measured: protobufjs is not packaged in Debian 12 and there is no npm registry here"}]
           + got["gaps"]}
    text = json.dumps(out, indent=1) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
