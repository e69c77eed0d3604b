#!/usr/bin/env python3
"""Verify the flight game's crash points, with the Python 3 standard library only.

Usage:
    verify_flight.py FLIGHTS.json      verify published flights (FILE, or "-" for stdin)
    verify_flight.py < FLIGHTS.json    the same, reading stdin
    verify_flight.py --vectors         check the published test vectors
    --commitment HEX --salt TEXT       also require the chain's commitment and salt to be
                                       these, as published before its first flight boarded

The input is JSON: {"commitment": "<hex seed[0]>", "salt": "...", "flights": [{"number": 1,
"seed": "<hex>", "crashPoint": "3.46"}, ...]}, or flight objects as the operator API
returns them (each with its own "commitment" and "salt"): a list of them, a page
{"data": [...]}, one flight object, or one flight object per line. Flights may come in
any order and need not start at flight 1.

For every revealed flight it checks that the seed hashes, by repeated SHA-256, down to the
seed of the flight before it that is revealed (or to the chain's commitment), and that the
crash point recomputed from the seed and the salt is the published one. It prints one
line per flight and exits with status 0 when everything verifies, 1 otherwise.

The rules are those of docs/operator/flight.md:
    seed[i-1] = SHA-256(seed[i])                  over the raw 32 bytes
    h = HMAC-SHA256(key = seed[k], message = UTF-8 bytes of the salt)
    X = int(first 13 hex digits of h)             the first 52 bits, big-endian
    crash = max(100, floor(99 * 2^52 / (2^52 - X)))  hundredths
    m(t) = floor(100 * e^(0.00006 * t))           hundredths, t in ms after take-off
    crash instant = the first millisecond t with m(t) >= crash
"""

import argparse
import hashlib
import hmac
import json
import math
import sys

TWO_POW_52 = 2**52
GROWTH_PER_MS = 0.00006
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
MAX_CHAIN_LENGTH = 10_000_000

# The published test vectors (docs/operator/flight.md, "Test vectors").
VECTOR_TERMINAL_TEXT = "flight test vector terminal seed"
VECTOR_LENGTH = 10
VECTOR_SALT = "flight-test-vector-salt-0001"
VECTOR_COMMITMENT = "22c234efc896eda3072ad7ef234c8a9e6d79209317d8602b456bbabfd0bdf7d7"
VECTOR_FLIGHT_ONE_SEED = "e694f18e80655ff75739a39043782570ab1ace5bb33e98db2ba18472ed1139bd"
VECTOR_CRASH_POINTS = {
    1: "3.46",
    2: "1.52",
    3: "1.80",
    4: "6.13",
    5: "3.60",
    6: "5.56",
    7: "1.45",
    8: "418.12",
    9: "1.17",
    10: "1.01",
}
VECTOR_CRASH_INSTANTS = {1: 20688, 2: 6979, 10: 166}
VECTOR_CURVE = {1000: 106, 11552: 199, 30000: 604, 60000: 3659}


def sha256(data):
    """One step down the seed chain: SHA-256 of the raw bytes."""
    return hashlib.sha256(data).digest()


def crash_point(seed, salt):
    """The crash point of the flight played with `seed` (32 bytes), in hundredths."""
    h = hmac.new(seed, salt.encode("utf-8"), hashlib.sha256).hexdigest()
    x = int(h[:13], 16)
    return max(100, 99 * TWO_POW_52 // (TWO_POW_52 - x))


def multiplier_at(t):
    """The curve at `t` whole milliseconds after take-off, in hundredths."""
    return math.floor(100 * math.exp(GROWTH_PER_MS * t))


def crash_instant_ms(crash):
    """The first millisecond after take-off at which the curve reaches `crash` hundredths.

    The logarithm only gives a first guess; the curve itself decides the millisecond.
    """
    if multiplier_at(0) >= crash:
        return 0
    t = max(1, math.ceil(math.log(crash / 100) / GROWTH_PER_MS))
    while t > 1 and multiplier_at(t - 1) >= crash:
        t -= 1
    while multiplier_at(t) < crash:
        t += 1
    return t


def two_decimals(hundredths):
    """A multiplier in hundredths written as published: "3.46"."""
    return "%d.%02d" % (hundredths // 100, hundredths % 100)


def seed_bytes(text):
    """The 32 raw bytes of a seed written as 64 hexadecimal digits, or None."""
    if not isinstance(text, str) or len(text) != 64 or not set(text) <= HEX_DIGITS:
        return None
    return bytes.fromhex(text)


def read_flights(text):
    """The flight objects and the document's own commitment and salt, from any input shape."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            return [json.loads(line) for line in lines], {}
        except json.JSONDecodeError as error:
            raise ValueError("the input is neither JSON nor JSON lines: %s" % error) from None
    if isinstance(document, list):
        return document, {}
    if not isinstance(document, dict):
        raise ValueError("the input is not a JSON object or list")
    for key in ("flights", "data"):
        if isinstance(document.get(key), list):
            return document[key], document
    if "number" in document:
        return [document], {}
    raise ValueError('the input has no "flights" list')


class Flight:
    """One published flight: its fields, and what is wrong with them on their own."""

    def __init__(self, raw, defaults):
        raw = raw if isinstance(raw, dict) else {}
        self.number = raw.get("number")
        self.seed_text = raw.get("seed")
        self.crash_text = raw.get("crashPoint")
        self.commitment = raw.get("commitment", defaults.get("commitment"))
        self.salt = raw.get("salt", defaults.get("salt"))
        self.seed = seed_bytes(self.seed_text)
        self.numbered = not isinstance(self.number, bool) and isinstance(self.number, int)
        self.numbered = self.numbered and 1 <= self.number <= MAX_CHAIN_LENGTH
        self.problems = []
        if not self.numbered:
            self.problems.append("its number is not a whole number from 1 to %d" % MAX_CHAIN_LENGTH)
        if seed_bytes(self.commitment) is None:
            self.problems.append("its commitment is not 64 hexadecimal digits")
        self.placeable = not self.problems
        if self.seed_text is None:
            self.problems.append("its seed is missing")
        elif self.seed is None:
            self.problems.append("its seed is not 64 hexadecimal digits")
        if not isinstance(self.salt, str) or not self.salt:
            self.problems.append("its salt is missing")
        if not isinstance(self.crash_text, str):
            self.problems.append("its crashPoint is missing")

    def label(self):
        """How the output names it."""
        return "flight %d" % self.number if self.numbered else "flight with number %s" % json.dumps(self.number)

    def revealed(self):
        """Whether it claims to have crashed: a seed or a crash point is published."""
        return self.seed_text is not None or self.crash_text is not None


def verify_chain(commitment, flights):
    """Checks the revealed flights of one chain, lowest number first.

    Each seed is hashed down to the highest revealed seed below it that verified (the
    commitment for the first), so every flight that verifies is linked to the commitment.
    Returns (lines, whether all verified).
    """
    lines = []
    ok = True
    salts = {flight.salt for flight in flights}
    anchor_number, anchor_seed = 0, bytes.fromhex(commitment)
    for flight in sorted(flights, key=lambda flight: flight.number):
        problems = list(flight.problems)
        if len(salts) > 1:
            problems.append("its chain is published with %d different salts" % len(salts))
        if flight.seed is not None:
            hashed = flight.seed
            for _ in range(flight.number - anchor_number):
                hashed = sha256(hashed)
            if hashed == anchor_seed:
                anchor_number, anchor_seed = flight.number, flight.seed
            elif anchor_number == 0:
                problems.append("its seed does not hash down to the commitment")
            else:
                problems.append("its seed does not hash down to the seed of flight %d" % anchor_number)
        computed = None
        if flight.seed is not None and isinstance(flight.salt, str) and flight.salt:
            computed = crash_point(flight.seed, flight.salt)
            if isinstance(flight.crash_text, str) and two_decimals(computed) != flight.crash_text:
                problems.append(
                    "crashPoint %s is published, the seed and salt give %s" % (flight.crash_text, two_decimals(computed))
                )
        if problems:
            ok = False
            lines.append("FAIL %s: %s" % (flight.label(), "; ".join(problems)))
        else:
            lines.append(
                "OK   %s: seed links to the commitment, crash point %s, crash instant %d ms after take-off"
                % (flight.label(), flight.crash_text, crash_instant_ms(computed))
            )
    return lines, ok


def verify_document(text, commitment=None, salt=None):
    """Verifies every flight of the input; returns (lines, whether all verified).

    `commitment` and `salt`, when given, are the ones published before the chain's first
    flight boarded: a flight published with another commitment or salt fails.
    """
    raw_flights, defaults = read_flights(text)
    lines = []
    ok = True
    chains = {}
    for flight in (Flight(raw, defaults) for raw in raw_flights):
        if commitment is not None and str(flight.commitment).lower() != commitment.lower():
            flight.problems.append("its commitment is not the published %s" % commitment.lower())
        if salt is not None and flight.salt != salt:
            flight.problems.append("its salt is not the published %s" % json.dumps(salt))
        if not flight.revealed() and flight.numbered:
            lines.append("SKIP %s: nothing revealed (the flight has not crashed)" % flight.label())
        elif not flight.placeable:
            ok = False
            lines.append("FAIL %s: %s" % (flight.label(), "; ".join(flight.problems)))
        else:
            chains.setdefault(flight.commitment.lower(), []).append(flight)
    for chain_commitment, chain in chains.items():
        chain_lines, chain_ok = verify_chain(chain_commitment, chain)
        if len(chains) > 1:
            chain_lines = ["%s (chain %s…)" % (line, chain_commitment[:12]) for line in chain_lines]
        lines.extend(chain_lines)
        ok = ok and chain_ok
    if ok and not chains:
        lines.append("FAIL nothing to verify: no flight has revealed its seed")
        ok = False
    return lines, ok


def verify_vectors():
    """Checks the published test vectors; returns (lines, whether all verified)."""
    lines = []
    ok = True

    def check(label, computed, published):
        nonlocal ok
        if computed == published:
            lines.append("OK   %s: %s" % (label, published))
        else:
            ok = False
            lines.append("FAIL %s: published %s, computed %s" % (label, published, computed))

    seeds = {VECTOR_LENGTH: sha256(VECTOR_TERMINAL_TEXT.encode("utf-8"))}
    for k in range(VECTOR_LENGTH, 0, -1):
        seeds[k - 1] = sha256(seeds[k])
    check("commitment", seeds[0].hex(), VECTOR_COMMITMENT)
    check("flight 1 seed", seeds[1].hex(), VECTOR_FLIGHT_ONE_SEED)
    for k, published in VECTOR_CRASH_POINTS.items():
        computed = crash_point(seeds[k], VECTOR_SALT)
        check("flight %d crash point" % k, two_decimals(computed), published)
        if k in VECTOR_CRASH_INSTANTS:
            check("flight %d crash instant (ms)" % k, crash_instant_ms(computed), VECTOR_CRASH_INSTANTS[k])
    for t, published in VECTOR_CURVE.items():
        check("m(%d)" % t, multiplier_at(t), published)
    return lines, ok


def main(argv):
    parser = argparse.ArgumentParser(description="Verify the flight game's crash points (docs/operator/flight.md).")
    parser.add_argument("file", nargs="?", default="-", help='published flights as JSON ("-" or nothing: stdin)')
    parser.add_argument("--commitment", help="the chain's commitment as published before its first flight")
    parser.add_argument("--salt", help="the chain's salt as published before its first flight")
    parser.add_argument("--vectors", action="store_true", help="check the published test vectors instead")
    args = parser.parse_args(argv)
    if args.vectors:
        lines, ok = verify_vectors()
    else:
        try:
            if args.file == "-":
                text = sys.stdin.read()
            else:
                with open(args.file, encoding="utf-8") as source:
                    text = source.read()
            lines, ok = verify_document(text, args.commitment, args.salt)
        except (OSError, ValueError) as error:
            lines, ok = ["FAIL %s" % error], False
    for line in lines:
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
