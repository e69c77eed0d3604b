#!/usr/bin/env python3
"""Verify a signed flight settlement statement (or a statement correction) of the Opinion
platform, as docs/operator/flight.md "How to verify a statement" describes.

Needs Python 3 and the `cryptography` package for Ed25519 (Debian/Ubuntu:
`apt-get install python3-cryptography`; elsewhere: `pip install cryptography`).

    python3 verify_statement.py EXPORT.json --keys opinion-statement-keys.json \
        [--previous PREVIOUS.json] [--lines LINES.csv] [--player-key HEX] [--amends STATEMENT.json]

EXPORT.json is a report's export ({"statement": {...}, "lines": "<CSV>"}), a signed
document alone ({"document": {...}, "signature": {...}}) or a correction as the API
lists it ({..., "document": {"document": {...}, "signature": {...}}}). The keys file is the JSON of
GET /.well-known/opinion-statement-keys.json. Prints one OK or FAIL line per check and
exits 0 only when every check passed.

Beside the key, the signature, the lines' SHA-256 and the chain, it checks the v5 parts:
`proofVersion` is the integer 5; a statement's leaves, recomputed from the CSV with the
export's `playerKey` (or --player-key), give its `merkleRoot` and `leafCount`, and its
totals, amount due and direction are the sums of the lines; a correction's `amountDue`
follows from `amountDueBefore` and `amountChange`, and (given the statement it amends
with --amends, or as --previous) it names that statement and its tree. The tree hashing
is verify_inclusion.py's, beside this file.
"""

import argparse
import base64
import csv
import hashlib
import hmac
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_inclusion import leaf_hash, merkle_root  # noqa: E402  (beside this file)

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:
    sys.exit(
        "the `cryptography` package is needed for Ed25519: "
        "apt-get install python3-cryptography (or pip install cryptography)"
    )


def canonical_bytes(document):
    """RFC 8785 bytes of a statement document: sorted, compact JSON (the documents hold
    only ASCII keys, strings, integers, booleans and null)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def document_hash(document):
    return hashlib.sha256(canonical_bytes(document)).hexdigest()


def instant(text):
    """An RFC 3339 UTC instant as a comparable (date-time, nanoseconds) pair."""
    match = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z", text or "")
    if not match:
        raise ValueError(f"not an RFC 3339 UTC instant: {text!r}")
    return match.group(1), int((match.group(2) or "").ljust(9, "0"))


def read_signed(path):
    """The signed document of an export or of a file holding one, the export's lines and
    its player key."""
    with open(path, encoding="utf-8") as file:
        value = json.load(file)
    if isinstance(value.get("statement"), dict):
        return value["statement"], value.get("lines"), value.get("playerKey")
    inner = value.get("document")
    if isinstance(inner, dict) and "signature" in inner:
        return inner, None, None
    return value, None, None


STATEMENT, CORRECTION = "flight_settlement_statement", "flight_statement_correction"
COLUMNS = ["ticketId", "flightId", "externalUserId", "purchasedAt", "outcome",
           "stake", "payout", "refund", "ggr", "shareBps", "share"]
AMOUNT = re.compile(r"-?(0|[1-9][0-9]*)")


def is_version_5(document):
    version = document.get("proofVersion")
    return isinstance(version, int) and not isinstance(version, bool) and version == 5


def idr(amount):
    return {"amount": str(amount), "currency": "IDR"}


def share_of(ggr, bps):
    """ggr x bps / 10 000, truncated toward zero."""
    size = abs(ggr) * bps // 10_000
    return size if ggr >= 0 else -size


def direction_of(signed):
    return "operator_to_platform" if signed > 0 else "platform_to_operator" if signed < 0 else "none"


def read_lines(text, key):
    """Walks the CSV: the leaves (with each player tagged by `key`, when given) and the
    totals. Raises ValueError naming a row that is not a ticket line."""
    rows = csv.reader(io.StringIO(text, newline=""))
    if next(rows, None) != COLUMNS:
        raise ValueError("the header row is not " + ",".join(COLUMNS))
    leaves, totals = [], {"ticketCount": 0, "stakes": 0, "payouts": 0, "refunds": 0, "ggr": 0, "share": 0}
    for number, row in enumerate(rows, start=1):
        if len(row) != len(COLUMNS):
            raise ValueError(f"row {number}: {len(row)} fields, not {len(COLUMNS)}")
        field = dict(zip(COLUMNS, row))
        amounts = {}
        for column in ("stake", "payout", "refund", "ggr", "shareBps", "share"):
            if not AMOUNT.fullmatch(field[column]):
                raise ValueError(f"row {number}: {column} {field[column]!r} is not an integer")
            amounts[column] = int(field[column])
        if min(amounts["stake"], amounts["payout"], amounts["refund"]) < 0 or not 0 <= amounts["shareBps"] <= 10_000:
            raise ValueError(f"row {number}: a negative amount or a share outside 0..10000")
        ggr = amounts["stake"] - amounts["payout"] - amounts["refund"]
        share = share_of(ggr, amounts["shareBps"])
        if amounts["ggr"] != ggr or amounts["share"] != share:
            raise ValueError(f"row {number}: ggr or share is not what stake, payout, refund and shareBps give")
        if field["outcome"] not in ("cashed_out", "lost", "refunded"):
            raise ValueError(f"row {number}: outcome {field['outcome']!r} is not an outcome")
        if key is not None:
            tag = hmac.new(key, field["externalUserId"].encode("utf-8"), hashlib.sha256).hexdigest()
            leaves.append(leaf_hash({
                "ticketId": field["ticketId"], "flightId": field["flightId"], "playerTag": tag,
                "purchasedAt": field["purchasedAt"], "outcome": field["outcome"],
                "stake": idr(amounts["stake"]), "payout": idr(amounts["payout"]),
                "refund": idr(amounts["refund"]), "ggr": idr(ggr), "shareBps": amounts["shareBps"],
                "share": idr(share),
            }))
        totals["ticketCount"] += 1
        for total, value in (("stakes", amounts["stake"]), ("payouts", amounts["payout"]),
                             ("refunds", amounts["refund"]), ("ggr", ggr), ("share", share)):
            totals[total] += value
    return leaves, totals


def signed_totals(totals):
    """The fields a statement signs for these totals (every line is IDR)."""
    expected = {"ticketCount": totals["ticketCount"]}
    for field in ("stakes", "payouts", "refunds", "ggr", "share"):
        expected[field] = [idr(totals[field])]
    expected["amountDue"] = idr(abs(totals["share"]))
    expected["direction"] = direction_of(totals["share"])
    return expected


def owed(document, amount_field, direction_field):
    """A money field and its direction as one signed amount (operator to platform is
    positive); raises ValueError when either is malformed or they do not fit."""
    money, direction = document.get(amount_field), document.get(direction_field)
    if not isinstance(money, dict) or set(money) != {"amount", "currency"} \
            or not isinstance(money["amount"], str) or not AMOUNT.fullmatch(money["amount"]):
        raise ValueError(f"{amount_field} is not money")
    if money["currency"] != document.get("currency"):
        raise ValueError(f"{amount_field} is not in the document's currency")
    amount = int(money["amount"])
    if direction_field is None:
        return amount
    fits = {"none": amount == 0, "operator_to_platform": amount > 0, "platform_to_operator": amount > 0}
    if not fits.get(direction, False):
        raise ValueError(f"{amount_field} {amount} does not fit {direction_field} {direction!r}")
    return -amount if direction == "platform_to_operator" else amount


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--keys", required=True, help="the published keys (well-known JSON)")
    parser.add_argument("--previous", help="the previous document of the chain (or its export)")
    parser.add_argument("--lines", help="the ticket-lines CSV, when the file does not carry it")
    parser.add_argument("--player-key", help="the statement's player key (64 hex), when the file does not carry it")
    parser.add_argument("--amends", help="the statement a correction amends (or its export)")
    args = parser.parse_args()

    signed, lines, player_key = read_signed(args.file)
    document, signature = signed["document"], signed["signature"]
    failures = []

    def check(ok, what):
        print(("OK   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    # The key: published, its id derived from its public key, not retired before issuedAt.
    with open(args.keys, encoding="utf-8") as file:
        keys = {key["keyId"]: key for key in json.load(file)["keys"]}
    key_id = signature["keyId"]
    key = keys.get(key_id)
    check(key is not None and document.get("keyId") == key_id, f"key {key_id} is published and named by the document")
    if key is None:
        return 1
    public = bytes.fromhex(key["publicKey"])
    check(key_id == "ed25519:" + hashlib.sha256(public).hexdigest()[:16], "the key id is derived from its public key")
    retired = key.get("retiredAt")
    check(
        retired is None or instant(document.get("issuedAt")) < instant(retired),
        f"the key was not retired when the document was issued ({document.get('issuedAt')})",
    )

    # The signature over the canonical bytes.
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(base64.b64decode(signature["value"]), canonical_bytes(document))
        check(signature["algorithm"] == "Ed25519", "the Ed25519 signature matches the document")
    except InvalidSignature:
        check(False, "the Ed25519 signature matches the document")

    # The version: only the integer 5.
    check(is_version_5(document), f"proofVersion: {json.dumps(document.get('proofVersion'))} is the integer 5")
    kind = document.get("type")
    check(kind in (STATEMENT, CORRECTION), f"type: {kind} is a statement or a correction")

    # The ticket lines, when the document names their hash (a statement always does).
    if args.lines:
        with open(args.lines, "rb") as file:
            csv_bytes = file.read()
    elif lines is not None:
        csv_bytes = lines.encode("utf-8")
    else:
        csv_bytes = None
    if "linesSha256" in document or kind == STATEMENT:
        check(
            csv_bytes is not None and hashlib.sha256(csv_bytes).hexdigest() == document.get("linesSha256"),
            "the ticket lines hash to linesSha256",
        )

    # A statement: its lines give its tree and its totals.
    if kind == STATEMENT and csv_bytes is not None:
        key_hex = args.player_key or player_key
        try:
            key = bytes.fromhex(key_hex) if key_hex else None
            if key is not None and len(key) != 32:
                raise ValueError
        except ValueError:
            key = None
            check(False, "proof: the player key is 64 hex digits")
        try:
            leaves, totals = read_lines(csv_bytes.decode("utf-8"), key)
        except ValueError as error:
            check(False, f"proof: the ticket lines cannot be read back: {error}")
            check(False, f"totals: the ticket lines cannot be read back: {error}")
        else:
            if key is not None:
                root = merkle_root(leaves).hex()
                check(
                    document.get("merkleRoot") == root and document.get("leafCount") == len(leaves),
                    f"proof: the {len(leaves)} leaves recomputed from the lines give merkleRoot {root}",
                )
            elif not key_hex:
                print("SKIP proof: no player key (give the export, or --player-key)")
            expected = signed_totals(totals)
            wrong = [field for field, value in expected.items() if document.get(field) != value]
            check(not wrong, "totals: the lines sum to the signed totals, amount due and direction"
                  + (f" (not: {', '.join(wrong)})" if wrong else ""))

    # A correction: its arithmetic, and the statement it amends.
    if kind == CORRECTION:
        try:
            before = owed(document, "amountDueBefore", "directionBefore")
            change = owed(document, "amountChange", None)
            after = owed(document, "amountDue", "direction")
            ok, detail = before + change == after, f"{before} + {change} = {after}"
        except ValueError as error:
            ok, detail = False, str(error)
        check(ok, f"arithmetic: amountDue is amountDueBefore moved by amountChange ({detail})")
        amended = None
        if args.amends:
            amended = read_signed(args.amends)[0]["document"]
        elif args.previous:
            candidate = read_signed(args.previous)[0]["document"]
            if candidate.get("sequence") == document.get("statementSequence"):
                amended = candidate
        if amended is None:
            print("SKIP amendment: give the amended statement with --amends")
        else:
            names = {"statementHash": document_hash(amended), "statementSequence": amended.get("sequence")}
            for field in ("reportId", "operatorId", "merkleRoot", "leafCount"):
                names[field] = amended.get(field)
            wrong = [field for field, value in names.items() if value is None or document.get(field) != value]
            check(
                amended.get("type") == STATEMENT and not wrong,
                "amendment: the correction names the amended statement and its tree"
                + (f" (not: {', '.join(wrong)})" if wrong else ""),
            )

    # The chain: the previous document's hash and sequence.
    if args.previous:
        previous = read_signed(args.previous)[0]
        before = previous["document"]
        check(
            document.get("previousHash") == document_hash(before)
            and document.get("sequence") == before.get("sequence", 0) + 1,
            f"sequence {document.get('sequence')} follows the previous document",
        )
    elif document.get("sequence") == 1:
        check(document.get("previousHash") is None, "the first document of the chain names no previous one")

    print(f"document hash {document_hash(document)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
