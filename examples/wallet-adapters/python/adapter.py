"""A minimal wallet adapter for the Opinion platform, in Python 3.11 with the standard
library only.

It implements the whole wallet adapter contract (docs/operator/wallet-adapter.md):
`POST /v1/mutations` and `POST /v1/balance`, Standard Webhooks signatures checked on the
raw body, every flow's required metadata, refusals with the contract's codes, and
idempotency that survives restarts: each mutation's balance change and its answer are
written in one SQLite transaction, so a repeated key always gets the first answer.

Environment:
  WALLET_SECRET  the adapter's signing secret (whsec_...), shown once by the platform
  PORT           the port to listen on, 0 for any free one (default 8090)
  WALLET_DB      the SQLite file of balances and answered keys (default wallet.sqlite3)
  PLAYERS        players to open when first seen, "id=CUR:balance" separated by spaces,
                 e.g. "player-42=USD:100000 player-43=IDR:2500000"

It prints `listening on <port>`, then one line per mutation it answers.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import sqlite3
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 5 * 60
MAX_BODY_BYTES = 64 * 1024
KEY_PATTERN = re.compile(r"[A-Za-z0-9:_-]{1,128}")
DIGITS = re.compile(r"[1-9][0-9]{0,17}")
CURRENCY = re.compile(r"[A-Z]{3}")

# Each flow: its direction, its reason key and its required metadata (rules 1, 8, 10).
FLOWS = {
    "buy": ("debit", "opinion.buy", ("marketId", "tradeId", "outcome", "shares")),
    "sell": ("credit", "opinion.sell", ("marketId", "tradeId", "outcome", "shares")),
    "buy_compensation": (
        "credit",
        "opinion.buy_compensation",
        ("marketId", "tradeId", "compensatedOperationId"),
    ),
    "redemption": ("credit", "opinion.redemption", ("marketId", "redemptionId", "resolution")),
    "flight_ticket_purchase": (
        "debit",
        "flight_ticket_purchase",
        ("flightId", "ticketId", "autoCashOut"),
    ),
    "flight_ticket_payout": (
        "credit",
        "flight_ticket_payout",
        ("flightId", "ticketId", "multiplier"),
    ),
    "flight_ticket_refund": (
        "credit",
        "flight_ticket_refund",
        ("flightId", "ticketId", "refundOf"),
    ),
}

SCHEMA = """
create table if not exists players (
    external_user_id text primary key,
    currency text not null,
    balance integer not null
);
create table if not exists answers (
    id integer primary key autoincrement,
    idempotency_key text not null unique,
    payload_hash text not null,
    status integer not null,
    body text not null,
    answered_at text not null
);
"""


class Refusal(Exception):
    """A contract refusal: its HTTP status and error code."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status = status
        self.code = code


def signing_key(secret):
    if not secret.startswith("whsec_"):
        raise SystemExit("WALLET_SECRET must be the whsec_ secret the platform showed")
    return base64.b64decode(secret[len("whsec_"):])


def verify(key, headers, body):
    """Checks the Standard Webhooks signature over the raw body, or refuses 401."""
    message_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (message_id and timestamp and signatures and timestamp.isdigit()):
        raise Refusal(401, "invalid_signature", "missing or malformed signature headers")
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        raise Refusal(401, "invalid_signature", "timestamp outside five minutes")
    signed = message_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return message_id
    raise Refusal(401, "invalid_signature", "no v1 signature matches")


def parse(body):
    try:
        value = json.loads(body)
    except ValueError:
        raise Refusal(400, "invalid_request", "the body is not JSON")
    if not isinstance(value, dict):
        raise Refusal(400, "invalid_request", "the body is not a JSON object")
    return value


def text(request, field, pattern=None):
    value = request.get(field)
    if not isinstance(value, str) or not value or (pattern and not pattern.fullmatch(value)):
        raise Refusal(400, "invalid_request", f"{field} is missing or malformed")
    return value


def mutation(request, message_id):
    """Validates a mutation's body; returns it with the hash of its payload."""
    key = text(request, "idempotencyKey", KEY_PATTERN)
    if key != message_id:
        raise Refusal(400, "invalid_request", "webhook-id is not the idempotencyKey")
    flow = text(request, "flow")
    if flow not in FLOWS:
        raise Refusal(400, "invalid_request", f"unknown flow {flow}")
    direction, reason, required = FLOWS[flow]
    if text(request, "direction") != direction or text(request, "reason") != reason:
        raise Refusal(400, "invalid_request", f"direction or reason is not the {flow} flow's")
    metadata = request.get("metadata")
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise Refusal(400, "invalid_request", "metadata must be an object of strings")
    missing = [name for name in required if not metadata.get(name)]
    if missing:
        raise Refusal(400, "invalid_request", f"metadata lacks {', '.join(missing)}")
    payload = {
        "flow": flow,
        "direction": direction,
        "reason": reason,
        "externalUserId": text(request, "externalUserId"),
        "amount": text(request, "amount", DIGITS),
        "currency": text(request, "currency", CURRENCY),
        "metadata": metadata,
    }
    text(request, "requestedAt")
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return key, payload, hashlib.sha256(canonical.encode()).hexdigest()


class Wallet:
    """The players' balances and the answered keys, in one SQLite database."""

    def __init__(self, path, players):
        self.path = path
        with self.connect() as db:
            db.executescript(SCHEMA)
            for external_user_id, currency, balance in players:
                db.execute(
                    "insert or ignore into players values (?, ?, ?)",
                    (external_user_id, currency, balance),
                )

    def connect(self):
        return sqlite3.connect(self.path, timeout=30, isolation_level=None)

    def apply(self, key, payload, payload_hash):
        """Applies a mutation once per key; returns (status, answer, repeated)."""
        db = self.connect()
        try:
            # One write transaction at a time: a repeated key waits for the first
            # request's transaction, then finds its answer.
            db.execute("begin immediate")
            first = db.execute(
                "select payload_hash, status, body from answers where idempotency_key = ?",
                (key,),
            ).fetchone()
            if first is not None:
                db.execute("rollback")
                if first[0] != payload_hash:
                    raise Refusal(422, "idempotency_key_reused", "another payload had this key")
                return first[1], json.loads(first[2]), True
            try:
                answer = self.move(db, payload)
                status = 200
            except Refusal as refusal:
                status, answer = refusal.status, error(refusal)
            cursor = db.execute(
                "insert into answers (idempotency_key, payload_hash, status, body, answered_at)"
                " values (?, ?, ?, '', datetime('now'))",
                (key, payload_hash, status),
            )
            if status == 200:
                answer["remoteReference"] = f"wtx-{cursor.lastrowid}"
            db.execute(
                "update answers set body = ? where id = ?", (json.dumps(answer), cursor.lastrowid)
            )
            db.execute("commit")
            return status, answer, False
        finally:
            db.close()

    def move(self, db, payload):
        player = db.execute(
            "select currency, balance from players where external_user_id = ?",
            (payload["externalUserId"],),
        ).fetchone()
        if player is None:
            raise Refusal(404, "user_not_found", "no such player")
        currency, balance = player
        if currency != payload["currency"]:
            raise Refusal(422, "currency_mismatch", f"the player's wallet is in {currency}")
        amount = int(payload["amount"])
        if payload["direction"] == "debit":
            if balance < amount:
                raise Refusal(402, "insufficient_funds", f"balance {balance} is below {amount}")
            amount = -amount
        db.execute(
            "update players set balance = balance + ? where external_user_id = ?",
            (amount, payload["externalUserId"]),
        )
        return {"status": "applied", "balance": str(balance + amount)}

    def balance(self, external_user_id):
        with self.connect() as db:
            player = db.execute(
                "select currency, balance from players where external_user_id = ?",
                (external_user_id,),
            ).fetchone()
        if player is None:
            raise Refusal(404, "user_not_found", "no such player")
        return {"externalUserId": external_user_id, "balance": str(player[1]), "currency": player[0]}


def error(refusal):
    return {"error": {"code": refusal.code, "message": str(refusal)}}


def handler(key, wallet):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            try:
                length = int(self.headers.get("content-length") or 0)
                if length > MAX_BODY_BYTES:
                    raise Refusal(400, "invalid_request", "the body is too large")
                body = self.rfile.read(length)
                message_id = verify(key, self.headers, body)
                request = parse(body)
                if self.path == "/v1/mutations":
                    idempotency_key, payload, payload_hash = mutation(request, message_id)
                    status, answer, repeated = wallet.apply(idempotency_key, payload, payload_hash)
                    outcome = answer.get("error", {}).get("code", "applied")
                    print(f"{'repeated' if repeated else 'answered'} {idempotency_key} {outcome}", flush=True)
                    self.answer(status, answer)
                elif self.path == "/v1/balance":
                    self.answer(200, wallet.balance(text(request, "externalUserId")))
                else:
                    raise Refusal(404, "invalid_request", "no such path")
            except Refusal as refusal:
                self.answer(refusal.status, error(refusal))

        def answer(self, status, value):
            body = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Handler


def players(spec):
    opened = []
    for entry in spec.split():
        external_user_id, _, account = entry.partition("=")
        currency, _, balance = account.partition(":")
        opened.append((external_user_id, currency, int(balance)))
    return opened


def main():
    key = signing_key(os.environ.get("WALLET_SECRET", ""))
    wallet = Wallet(os.environ.get("WALLET_DB", "wallet.sqlite3"), players(os.environ.get("PLAYERS", "")))
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8090"))), handler(key, wallet))
    print(f"listening on {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
