// A complete webhook receiver for the Opinion platform, Node.js standard library only.
//
// Run:  WEBHOOK_SECRET=whsec_... PORT=8080 node receiver.mjs
//
// It verifies each delivery's Standard Webhooks signature (every `v1,` entry of
// `webhook-signature`, constant-time), refuses timestamps more than five minutes from
// this machine's clock, and handles each event id once: a repeated id is answered
// 200 "already processed" without handling it again, so the service stops retrying.
//
// Answers: 204 on an accepted event, 200 on a duplicate, 400 on a missing header or a
// stale timestamp, 401 on a signature that does not match.

import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const TOLERANCE_SECONDS = 5 * 60;
const SECRET = Buffer.from(process.env.WEBHOOK_SECRET.replace(/^whsec_/, ""), "base64");

// Ids already handled. An in-memory set is enough for an example; a real receiver keeps
// them in its database (at least as long as the retry window, about three days), ideally
// in the same transaction as the work the event causes.
const seenIds = new Set();

function signatureMatches(id, timestamp, body, header) {
  const expected = createHmac("sha256", SECRET)
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest();
  let matched = false;
  for (const entry of header.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(entry.slice(comma + 1), "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

function answer(response, status, text) {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  response.end(text);
}

function handle(request, body, response) {
  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  const signature = request.headers["webhook-signature"];
  if (!id || !timestamp || !signature) return answer(response, 400, "missing webhook headers");
  if (!signatureMatches(id, timestamp, body, signature)) {
    return answer(response, 401, "invalid signature");
  }
  if (!/^\d+$/.test(timestamp)) return answer(response, 400, "invalid timestamp");
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    return answer(response, 400, "stale timestamp");
  }
  if (seenIds.has(id)) {
    console.log(`duplicate ${id}`);
    return answer(response, 200, "already processed");
  }
  seenIds.add(id);
  const event = JSON.parse(body.toString("utf8"));
  // Answer at once; slow work belongs in a queue of your own.
  console.log(`accepted ${event.id} ${event.type}`);
  answer(response, 204, "");
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => handle(request, Buffer.concat(chunks), response));
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`);
});
