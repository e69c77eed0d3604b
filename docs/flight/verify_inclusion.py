#!/usr/bin/env python3
"""Verify a ticket's inclusion proof (the v5 proof), with the Python 3 standard library only.

Usage:
    verify_inclusion.py PROOF.json     verify a ticket's proof (FILE, or "-" for stdin)
    verify_inclusion.py < PROOF.json   the same, reading stdin
    --statement STATEMENT.json         also require the proof's root, tree size and
                                       version to be those the signed statement names
                                       (its document's merkleRoot, leafCount, proofVersion)

The proof is JSON: {"proofVersion": 5, "merkleRoot": "<64 hex>", "treeSize": 18250,
"leafIndex": 4711, "auditPath": ["<64 hex>", ...], "line": {"ticketId": "tkt_...", ...}}.
Take the root and the tree size from the signed statement you verified (or pass
--statement): a proof only shows that the line is in the tree whose root you trust.

The rules are those of RFC 6962 (docs/operator/flight.md, "The v5 proof"):
    leaf = SHA-256(0x00 || JCS(line))       JCS: sorted keys, no white space, UTF-8
    node = SHA-256(0x01 || left || right)
and the path is checked with RFC 9162's algorithm (section 2.1.3.2), which uses the leaf
index and the tree size to know on which side each hash of the path goes.

It prints one line and exits with status 0 when the proof verifies, 1 when it does not,
2 when the input cannot be read.
"""

import argparse
import hashlib
import json
import sys

PROOF_VERSION = 5
HEX_DIGITS = frozenset("0123456789abcdef")


class Refused(Exception):
    """The proof does not prove the line."""


def canonical(value):
    """The RFC 8785 bytes of a document holding no floats and only ASCII keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def leaf_hash(line):
    return hashlib.sha256(b"\x00" + canonical(line)).digest()


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def merkle_root(leaves):
    """RFC 6962's root of a list of leaf hashes: split at the largest power of two below
    the number of leaves; the empty tree's root is SHA-256 of nothing."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    split = 1
    while split * 2 < len(leaves):
        split *= 2
    return node_hash(merkle_root(leaves[:split]), merkle_root(leaves[split:]))


def hash_of(text, what):
    if not isinstance(text, str) or len(text) != 64 or not set(text) <= HEX_DIGITS:
        raise Refused(f"{what} is not 64 lowercase hex digits")
    return bytes.fromhex(text)


def whole_number(value, what):
    # bool is an int in Python: refuse it, and anything but a JSON integer.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Refused(f"{what} is not a whole number")
    return value


def check_version(document, what):
    version = document.get("proofVersion")
    if isinstance(version, bool) or not isinstance(version, int) or version != PROOF_VERSION:
        raise Refused(f"{what} has proofVersion {json.dumps(version)}, not {PROOF_VERSION}")


def root_from_path(leaf, index, size, path):
    """RFC 9162, 2.1.3.2: the root the audit path leads to from the leaf."""
    if index >= size:
        raise Refused(f"leaf {index} is not in a tree of {size} leaves")
    fn, sn = index, size - 1
    root = leaf
    for sibling in path:
        if sn == 0:
            raise Refused("the audit path is too long for this index and tree size")
        if fn % 2 == 1 or fn == sn:
            root = node_hash(sibling, root)
            while fn % 2 == 0 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            root = node_hash(root, sibling)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise Refused("the audit path is too short for this index and tree size")
    return root


def verify(proof, statement=None):
    """Returns a line describing what was verified, or raises Refused."""
    if not isinstance(proof, dict) or not isinstance(proof.get("line"), dict):
        raise Refused("the proof has no line")
    check_version(proof, "the proof")
    root = hash_of(proof.get("merkleRoot"), "merkleRoot")
    size = whole_number(proof.get("treeSize"), "treeSize")
    index = whole_number(proof.get("leafIndex"), "leafIndex")
    path = proof.get("auditPath")
    if not isinstance(path, list):
        raise Refused("auditPath is not a list")
    path = [hash_of(h, f"auditPath[{i}]") for i, h in enumerate(path)]
    if statement is not None:
        document = statement.get("document", statement) if isinstance(statement, dict) else None
        if not isinstance(document, dict):
            raise Refused("the statement is not a JSON object")
        check_version(document, "the statement")
        if document.get("merkleRoot") != proof["merkleRoot"]:
            raise Refused("the proof's merkleRoot is not the statement's")
        if document.get("leafCount") != size:
            raise Refused("the proof's treeSize is not the statement's leafCount")
    if root_from_path(leaf_hash(proof["line"]), index, size, path) != root:
        raise Refused("the proof leads to another root: the line, the index or a hash differs")
    ticket = proof["line"].get("ticketId", "?")
    return f"OK: ticket {ticket} is leaf {index} of {size} under root {proof['merkleRoot']}"


def read_json(path):
    if path in (None, "-"):
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def main():
    parser = argparse.ArgumentParser(description="Verify a flight ticket's inclusion proof (v5).")
    parser.add_argument("proof", nargs="?", help='the proof file ("-" or nothing for stdin)')
    parser.add_argument("--statement", help="the signed statement the root and size must come from")
    args = parser.parse_args()
    try:
        proof = read_json(args.proof)
        statement = read_json(args.statement) if args.statement else None
    except (OSError, ValueError) as error:
        print(f"cannot read the input: {error}")
        return 2
    try:
        print(verify(proof, statement))
        return 0
    except Refused as refused:
        print(f"FAILED: {refused}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
