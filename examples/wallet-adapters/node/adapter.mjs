// A minimal wallet adapter for the Opinion platform, in Node.js 20 with the standard
// library only.
//
// It implements the whole wallet adapter contract (docs/operator/wallet-adapter.md):
// `POST /v1/mutations` and `POST /v1/balance`, Standard Webhooks signatures checked on
// the raw body, every flow's required metadata, refusals with the contract's codes, and
// idempotency that survives restarts: each mutation's balance change and its answer are
// one line of an append-only journal, written and flushed to disk before the answer is
// sent, and the journal is replayed at start.
//
// Environment:
//   WALLET_SECRET  the adapter's signing secret (whsec_...), shown once by the platform
//   PORT           the port to listen on, 0 for any free one (default 8090)
//   WALLET_JOURNAL the journal file of balances and answered keys (default wallet.jsonl)
//   PLAYERS        players to open when first seen, "id=CUR:balance" separated by spaces,
//                  e.g. "player-42=USD:100000 player-43=IDR:2500000"
//
// It prints `listening on <port>`, then one line per mutation it answers.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';

const TOLERANCE_SECONDS = 5 * 60;
const MAX_BODY_BYTES = 64 * 1024;
const KEY_PATTERN = /^[A-Za-z0-9:_-]{1,128}$/;
const DIGITS = /^[1-9][0-9]{0,17}$/;
const CURRENCY = /^[A-Z]{3}$/;

// Each flow: its direction, its reason key and its required metadata (rules 1, 8, 10).
const FLOWS = {
  buy: ['debit', 'opinion.buy', ['marketId', 'tradeId', 'outcome', 'shares']],
  sell: ['credit', 'opinion.sell', ['marketId', 'tradeId', 'outcome', 'shares']],
  buy_compensation: ['credit', 'opinion.buy_compensation', ['marketId', 'tradeId', 'compensatedOperationId']],
  redemption: ['credit', 'opinion.redemption', ['marketId', 'redemptionId', 'resolution']],
  flight_ticket_purchase: ['debit', 'flight_ticket_purchase', ['flightId', 'ticketId', 'autoCashOut']],
  flight_ticket_payout: ['credit', 'flight_ticket_payout', ['flightId', 'ticketId', 'multiplier']],
  flight_ticket_refund: ['credit', 'flight_ticket_refund', ['flightId', 'ticketId', 'refundOf']],
};

/** A contract refusal: its HTTP status and error code. */
class Refusal extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function signingKey(secret) {
  if (!secret.startsWith('whsec_')) {
    throw new Error('WALLET_SECRET must be the whsec_ secret the platform showed');
  }
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

/** Checks the Standard Webhooks signature over the raw body, or refuses 401. */
function verify(key, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !signatures || !/^[0-9]+$/.test(timestamp ?? '')) {
    throw new Refusal(401, 'invalid_signature', 'missing or malformed signature headers');
  }
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    throw new Refusal(401, 'invalid_signature', 'timestamp outside five minutes');
  }
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',', 2);
    const given = Buffer.from(signature ?? '', 'base64');
    if (version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)) {
      return id;
    }
  }
  throw new Refusal(401, 'invalid_signature', 'no v1 signature matches');
}

function parse(body) {
  let value;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new Refusal(400, 'invalid_request', 'the body is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Refusal(400, 'invalid_request', 'the body is not a JSON object');
  }
  return value;
}

function text(request, field, pattern) {
  const value = request[field];
  if (typeof value !== 'string' || value === '' || (pattern && !pattern.test(value))) {
    throw new Refusal(400, 'invalid_request', `${field} is missing or malformed`);
  }
  return value;
}

/** Validates a mutation's body; returns its key, payload and the hash of the payload. */
function mutation(request, id) {
  const key = text(request, 'idempotencyKey', KEY_PATTERN);
  if (key !== id) {
    throw new Refusal(400, 'invalid_request', 'webhook-id is not the idempotencyKey');
  }
  const flow = text(request, 'flow');
  if (!Object.hasOwn(FLOWS, flow)) {
    throw new Refusal(400, 'invalid_request', `unknown flow ${flow}`);
  }
  const [direction, reason, required] = FLOWS[flow];
  if (text(request, 'direction') !== direction || text(request, 'reason') !== reason) {
    throw new Refusal(400, 'invalid_request', `direction or reason is not the ${flow} flow's`);
  }
  const metadata = request.metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)
    || !Object.values(metadata).every((value) => typeof value === 'string')) {
    throw new Refusal(400, 'invalid_request', 'metadata must be an object of strings');
  }
  const missing = required.filter((name) => !metadata[name]);
  if (missing.length > 0) {
    throw new Refusal(400, 'invalid_request', `metadata lacks ${missing.join(', ')}`);
  }
  text(request, 'requestedAt');
  const payload = {
    flow,
    direction,
    reason,
    externalUserId: text(request, 'externalUserId'),
    amount: text(request, 'amount', DIGITS),
    currency: text(request, 'currency', CURRENCY),
    metadata: Object.fromEntries(Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  return { key, payload, hash: createHash('sha256').update(JSON.stringify(payload)).digest('hex') };
}

function error(refusal) {
  return { error: { code: refusal.code, message: refusal.message } };
}

/** The players' balances and the answered keys, rebuilt from the journal. */
class Wallet {
  constructor(path, players) {
    this.players = new Map();
    this.answers = new Map();
    this.written = 0;
    if (existsSync(path)) {
      const content = readFileSync(path);
      // A line is written whole before its request is answered; a crash while writing
      // one leaves it without its newline and unanswered, so it is cut off.
      const complete = content.lastIndexOf('\n') + 1;
      truncateSync(path, complete);
      for (const line of content.subarray(0, complete).toString('utf8').split('\n').filter(Boolean)) {
        this.replay(JSON.parse(line));
      }
    }
    this.journal = openSync(path, 'a');
    for (const [externalUserId, currency, balance] of players) {
      if (!this.players.has(externalUserId)) {
        this.record({ kind: 'opened', externalUserId, currency, balance: String(balance) });
      }
    }
  }

  replay(entry) {
    this.written += 1;
    if (entry.kind === 'opened') {
      this.players.set(entry.externalUserId, { currency: entry.currency, balance: BigInt(entry.balance) });
    } else {
      this.answers.set(entry.key, entry);
      if (entry.status === 200) {
        this.players.get(entry.externalUserId).balance += BigInt(entry.change);
      }
    }
  }

  /** Writes one entry and flushes it to disk, then applies it in memory. */
  record(entry) {
    writeSync(this.journal, `${JSON.stringify(entry)}\n`);
    fsyncSync(this.journal);
    this.replay(entry);
  }

  /** Applies a mutation once per key; returns its status, answer and whether it repeats. */
  apply({ key, payload, hash }) {
    const first = this.answers.get(key);
    if (first) {
      if (first.hash !== hash) {
        throw new Refusal(422, 'idempotency_key_reused', 'another payload had this key');
      }
      return { status: first.status, answer: first.answer, repeated: true };
    }
    let status = 200;
    let answer;
    let change = 0n;
    try {
      change = this.change(payload);
      const balance = this.players.get(payload.externalUserId).balance + change;
      answer = { status: 'applied', remoteReference: `wtx-${this.written + 1}`, balance: String(balance) };
    } catch (refusal) {
      if (!(refusal instanceof Refusal)) {
        throw refusal;
      }
      status = refusal.status;
      answer = error(refusal);
    }
    this.record({ kind: 'answered', key, hash, status, answer, externalUserId: payload.externalUserId, change: String(change) });
    return { status, answer, repeated: false };
  }

  change(payload) {
    const player = this.players.get(payload.externalUserId);
    if (!player) {
      throw new Refusal(404, 'user_not_found', 'no such player');
    }
    if (player.currency !== payload.currency) {
      throw new Refusal(422, 'currency_mismatch', `the player's wallet is in ${player.currency}`);
    }
    const amount = BigInt(payload.amount);
    if (payload.direction === 'credit') {
      return amount;
    }
    if (player.balance < amount) {
      throw new Refusal(402, 'insufficient_funds', `balance ${player.balance} is below ${amount}`);
    }
    return -amount;
  }

  balance(externalUserId) {
    const player = this.players.get(externalUserId);
    if (!player) {
      throw new Refusal(404, 'user_not_found', 'no such player');
    }
    return { externalUserId, balance: String(player.balance), currency: player.currency };
  }

  close() {
    closeSync(this.journal);
  }
}

function players(spec) {
  return spec.split(/\s+/).filter(Boolean).map((entry) => {
    const [externalUserId, account] = entry.split('=');
    const [currency, balance] = account.split(':');
    return [externalUserId, currency, BigInt(balance)];
  });
}

function answer(response, status, value) {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function handle(key, wallet, request, body) {
  const id = verify(key, request.headers, body);
  const parsed = parse(body);
  if (request.url === '/v1/mutations') {
    const checked = mutation(parsed, id);
    const outcome = wallet.apply(checked);
    console.log(`${outcome.repeated ? 'repeated' : 'answered'} ${checked.key} ${outcome.answer.error?.code ?? 'applied'}`);
    return [outcome.status, outcome.answer];
  }
  if (request.url === '/v1/balance') {
    return [200, wallet.balance(text(parsed, 'externalUserId'))];
  }
  throw new Refusal(404, 'invalid_request', 'no such path');
}

const key = signingKey(process.env.WALLET_SECRET ?? '');
const wallet = new Wallet(process.env.WALLET_JOURNAL ?? 'wallet.jsonl', players(process.env.PLAYERS ?? ''));

const server = createServer((request, response) => {
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) {
      chunks.push(chunk);
    }
  });
  request.on('end', () => {
    try {
      if (request.method !== 'POST' || size > MAX_BODY_BYTES) {
        throw new Refusal(400, 'invalid_request', 'a POST of at most 64 KiB is expected');
      }
      // Everything from here to the answer runs without yielding, so two requests with
      // one key never interleave: the second finds the first's answer in the journal.
      const [status, value] = handle(key, wallet, request, Buffer.concat(chunks));
      answer(response, status, value);
    } catch (refusal) {
      if (!(refusal instanceof Refusal)) {
        throw refusal;
      }
      answer(response, refusal.status, error(refusal));
    }
  });
});

process.on('SIGTERM', () => {
  server.close();
  wallet.close();
  process.exit(0);
});

server.listen(Number(process.env.PORT ?? 8090), '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`);
});
