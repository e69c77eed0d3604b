"""A complete webhook receiver for the Opinion platform, standard library only.

Run:  WEBHOOK_SECRET=whsec_... PORT=8080 python3 receiver.py

It verifies each delivery's Standard Webhooks signature (every `v1,` entry of
`webhook-signature`, constant-time), refuses timestamps more than five minutes from
this machine's clock, and handles each event id once: a repeated id is answered
200 "already processed" without handling it again, so the service stops retrying.

Answers: 204 on an accepted event, 200 on a duplicate, 400 on a missing header or a
stale timestamp, 401 on a signature that does not match.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 5 * 60
SECRET = base64.b64decode(os.environ["WEBHOOK_SECRET"].removeprefix("whsec_"))

# Ids already handled. An in-memory set is enough for an example; a real receiver keeps
# them in its database (at least as long as the retry window, about three days), ideally
# in the same transaction as the work the event causes.
seen_ids = set()
seen_lock = threading.Lock()


def signature_matches(message_id: str, timestamp: str, body: bytes, header: str) -> bool:
    signed = message_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(SECRET, signed, hashlib.sha256).digest())
    matched = False
    for entry in header.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode(), expected):
            matched = True
    return matched


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        message_id = self.headers.get("webhook-id")
        timestamp = self.headers.get("webhook-timestamp")
        signature = self.headers.get("webhook-signature")
        if not (message_id and timestamp and signature):
            return self.answer(400, "missing webhook headers")
        if not signature_matches(message_id, timestamp, body, signature):
            return self.answer(401, "invalid signature")
        try:
            sent_at = int(timestamp)
        except ValueError:
            return self.answer(400, "invalid timestamp")
        if abs(time.time() - sent_at) > TOLERANCE_SECONDS:
            return self.answer(400, "stale timestamp")
        event = json.loads(body)
        with seen_lock:
            if message_id in seen_ids:
                print(f"duplicate {message_id}", flush=True)
                return self.answer(200, "already processed")
            seen_ids.add(message_id)
            # Answer at once; slow work belongs in a queue of your own.
            print(f"accepted {event['id']} {event['type']}", flush=True)
        self.answer(204, "")

    def answer(self, status: int, text: str):
        payload = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format, *args):
        sys.stderr.write("%s %s\n" % (self.address_string(), format % args))


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "0"))), Receiver)
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()
