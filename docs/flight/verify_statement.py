#!/usr/bin/env python3
"""Verify a signed flight settlement statement (or a statement correction) of the Opinion
platform, as docs/flight.md "How to verify a statement" describes.

Needs Python 3 and the `cryptography` package for Ed25519 (Debian/Ubuntu:
`apt-get install python3-cryptography`; elsewhere: `pip install cryptography`).

    python3 verify_statement.py EXPORT.json --keys opinion-statement-keys.json \
        [--previous PREVIOUS.json] [--lines LINES.csv]

EXPORT.json is a report's export ({"statement": {...}, "lines": "<CSV>"}) or a signed
document alone ({"document": {...}, "signature": {...}}). The keys file is the JSON of
GET /.well-known/opinion-statement-keys.json. Prints one OK or FAIL line per check and
exits 0 only when every check passed.
"""

import argparse
import base64
import hashlib
import json
import re
import sys

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
    """The signed document of an export or of a file holding one, and the export's lines."""
    with open(path, encoding="utf-8") as file:
        value = json.load(file)
    if isinstance(value.get("statement"), dict):
        return value["statement"], value.get("lines")
    return value, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--keys", required=True, help="the published keys (well-known JSON)")
    parser.add_argument("--previous", help="the previous document of the chain (or its export)")
    parser.add_argument("--lines", help="the ticket-lines CSV, when the file does not carry it")
    args = parser.parse_args()

    signed, lines = read_signed(args.file)
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

    # The ticket lines, when the document names their hash.
    if "linesSha256" in document:
        if args.lines:
            with open(args.lines, "rb") as file:
                csv = file.read()
        elif lines is not None:
            csv = lines.encode("utf-8")
        else:
            csv = None
        check(
            csv is not None and hashlib.sha256(csv).hexdigest() == document["linesSha256"],
            "the ticket lines hash to linesSha256",
        )

    # The chain: the previous document's hash and sequence.
    if args.previous:
        previous, _ = read_signed(args.previous)
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
