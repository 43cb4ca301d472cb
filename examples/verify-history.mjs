#!/usr/bin/env node
// Verifies one trainee's history against a signed digest, trusting nothing of the service but the
// key fingerprint its operator published (docs/operations.md "Verifying the history"). Standalone:
// Node.js 20 and its own `node:crypto`, no import from the project, no package.
//
//   node examples/verify-history.mjs --api <base url> --token <token> --trainee <id> [--api-version v2026.1]
//                                    [--fingerprint <hex>] [--save <dir>]
//   node examples/verify-history.mjs --digest <file> --history <file> [--fingerprint <hex>]
//
// The first form fetches `GET /api/<v>/audit/digest?trainee_id=<id>` and every page of
// `GET /api/<v>/trainees/<id>/history` (and with --save writes them to <dir>/digest.json and
// <dir>/history.json); the second reads such files: the digest answer (or the bare digest), and the
// history as one answer, an array of pages or entries, or JSON lines (`admin trainee history --json`).
//
// It checks, by the rules of docs/DESIGN.md "Verifiable history" and "Signed digests":
//  1. the digest's Ed25519 signature holds for its public key, and that key's fingerprint is the
//     one given (without --fingerprint it prints the fingerprint for you to compare);
//  2. every event's hash is SHA-256 of `JSON.stringify([previous_hash, stream_id, revision, type])`,
//     a line feed, its data as stored, a line feed, and its metadata as stored without `hash`; each
//     chains to the one before, from revision 0 with no gap;
//  3. the stream's head as of the digest is a leaf of the digest's Merkle tree (RFC 9162 §2.1.3).
// Exit 0 when all hold; 1 with the reasons otherwise; 2 for bad arguments or unreadable input.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const FORMAT = 'trainee-records-audit-digest/1';
const HEX64 = /^[0-9a-f]{64}$/;

const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** The digest's signature holds for its own public key (the message: JSON of format, position, time, streams, root). */
function signatureHolds(d) {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: d.public_key.x }, format: 'jwk' });
    const message = Buffer.from(JSON.stringify([d.format, d.position, d.time, d.streams, d.root]));
    return verify(null, message, key, Buffer.from(d.signature, 'base64'));
  } catch {
    return false;
  }
}

/** SHA-256 of the public key's raw 32 bytes, hex. */
const fingerprintOf = (d) => sha256(Buffer.from(d.public_key.x, 'base64url')).toString('hex');

/** The stored metadata text without its trailing `"hash":"<hex>"` key, and that hash; the text itself and null without one. */
function splitHash(metadata) {
  const m = /,?"hash":"([0-9a-f]{64})"\}$/.exec(metadata);
  if (!m) return { hashed: metadata, hash: null };
  const rest = metadata.slice(0, m.index);
  return { hashed: `${rest}}`, hash: m[1] };
}

/**
 * The faults of the chain of `entries` (one stream, every revision from 0), one line per fault, and
 * the hash at each revision. The chain goes on from the hash each event was stored with (the one the
 * next event was chained to), not from the one recomputed, so one altered event is one line, as
 * `admin audit verify` reports it, not a fault at every later revision.
 */
function checkChain(entries) {
  const faults = [];
  const hashes = [];
  let previous = null;
  let expected = 0;
  entries.forEach((e) => {
    const gap = e.revision !== expected;
    if (gap) faults.push(`revision ${expected}: missing (the history goes on at revision ${e.revision})`);
    expected = e.revision + 1;
    const { hashed, hash: stored } = splitHash(e.stored_metadata);
    const chainedTo = stored === null ? previous : (JSON.parse(hashed).previousHash ?? null);
    // After a gap the event before is not shown: the event is checked against the link it names.
    const base = gap ? chainedTo : previous;
    const recomputed = sha256(`${JSON.stringify([base, e.stream_id, e.revision, e.event_type])}\n${e.stored_data}\n${hashed}`).toString(
      'hex',
    );
    const link = stored ?? recomputed;
    if (chainedTo !== base) faults.push(`revision ${e.revision}: not chained to the event before it`);
    else if (stored !== null && stored !== recomputed)
      faults.push(`revision ${e.revision}: altered (its stored form does not make its hash)`);
    if (e.hash !== null && e.hash !== link) faults.push(`revision ${e.revision}: the hash shown is not the event's`);
    if (e.previous_hash !== null && e.previous_hash !== base) faults.push(`revision ${e.revision}: previous_hash shown is not the chain's`);
    hashes[e.revision] = link;
    previous = link;
  });
  return { faults, hashes };
}

function nodeHash(left, right) {
  return sha256(Buffer.of(1), left, right);
}

/** The root the audit path makes of the leaf (RFC 9162 §2.1.3.2), or null when the path cannot fit the tree. */
function rootFromPath(index, size, leaf, path) {
  if (!(index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else r = nodeHash(r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/** Every entry of a history file: one answer `{data: [...]}`, an array of pages or entries, or JSON lines. */
function entriesOf(text) {
  const trimmed = text.trim();
  let values;
  try {
    values = [JSON.parse(trimmed)];
  } catch {
    values = trimmed
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
  }
  const out = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && Array.isArray(v.data)) v.data.forEach(walk);
    else if (v && typeof v === 'object' && 'revision' in v) out.push(v);
  };
  walk(values);
  return out.sort((a, b) => a.revision - b.revision);
}

async function fetchJson(url, token) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${url.replace(/\?.*/, '')}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The digest answer and every page of the history, from the API. */
async function fetchAll({ api, token, trainee, version }) {
  const base = `${api.replace(/\/$/, '')}/api/${version}`;
  const digest = await fetchJson(`${base}/audit/digest?trainee_id=${encodeURIComponent(trainee)}`, token);
  const pages = [];
  for (let after = ''; ;) {
    const page = await fetchJson(
      `${base}/trainees/${encodeURIComponent(trainee)}/history?limit=1000&after=${encodeURIComponent(after)}`,
      token,
    );
    pages.push(page);
    if (!page.has_more) break;
    after = page.next_cursor;
  }
  return { digest, pages };
}

async function main() {
  const { values: o } = parseArgs({
    options: {
      api: { type: 'string' },
      token: { type: 'string' },
      trainee: { type: 'string' },
      'api-version': { type: 'string', default: 'v2026.1' },
      digest: { type: 'string' },
      history: { type: 'string' },
      fingerprint: { type: 'string' },
      save: { type: 'string' },
    },
  });
  let digestAnswer;
  let entries;
  if (o.api && o.token && o.trainee) {
    const fetched = await fetchAll({ api: o.api, token: o.token, trainee: o.trainee, version: o['api-version'] });
    digestAnswer = fetched.digest;
    entries = entriesOf(JSON.stringify(fetched.pages));
    if (o.save) {
      mkdirSync(o.save, { recursive: true });
      writeFileSync(join(o.save, 'digest.json'), `${JSON.stringify(fetched.digest, null, 2)}\n`);
      writeFileSync(join(o.save, 'history.json'), `${JSON.stringify(fetched.pages)}\n`);
    }
  } else if (o.digest && o.history) {
    digestAnswer = JSON.parse(readFileSync(o.digest, 'utf8'));
    entries = entriesOf(readFileSync(o.history, 'utf8'));
  } else {
    console.error('usage: verify-history.mjs (--api URL --token TOKEN --trainee ID | --digest FILE --history FILE) [--fingerprint HEX]');
    return 2;
  }
  const digest = digestAnswer.data ?? digestAnswer;
  const problems = [];
  if (digest.format !== FORMAT) problems.push(`the digest is not of format ${FORMAT}`);
  if (!signatureHolds(digest)) problems.push('the digest’s signature does not hold');
  const fingerprint = fingerprintOf(digest);
  if (o.fingerprint && o.fingerprint.toLowerCase() !== fingerprint)
    problems.push(`the digest was signed by key ${fingerprint}, not ${o.fingerprint}`);
  if (entries.length === 0) problems.push('the history holds no event');
  if (entries.some((e) => typeof e.stored_data !== 'string' || typeof e.stored_metadata !== 'string' || typeof e.stream_id !== 'string'))
    problems.push('the history does not show each event as stored (stream_id, stored_data, stored_metadata)');
  if (problems.length > 0) return report(problems);

  const { faults, hashes } = checkChain(entries);
  problems.push(...faults);
  const proof = digest.inclusion;
  const stream = entries[0].stream_id;
  let covered = 0;
  if (!proof) problems.push(`the digest of position ${digest.position} holds no head of ${stream}: ask for a later digest`);
  else {
    if (proof.stream_id !== stream) problems.push(`the proof is of ${proof.stream_id}, not ${stream}`);
    if (hashes[proof.revision] !== proof.hash || !HEX64.test(proof.hash))
      problems.push(`revision ${proof.revision}: not the event the digest signed as the stream's head`);
    const leaf = sha256(Buffer.of(0), JSON.stringify([proof.stream_id, proof.revision, proof.hash]));
    const path = proof.audit_path.map((h) => Buffer.from(h, 'hex'));
    const root = rootFromPath(proof.leaf_index, digest.streams, leaf, path);
    if (root?.toString('hex') !== digest.root) problems.push('the stream’s head is not in the digest’s Merkle tree');
    covered = proof.revision + 1;
  }
  if (problems.length > 0) return report(problems);
  const later = entries.length - covered;
  console.log(
    `${stream}: ${entries.length} events, every hash holds and chains from revision 0; revision ${proof.revision} is the head ` +
      `signed in the digest of position ${digest.position} (${digest.time}, ${digest.streams} streams, root ${digest.root})` +
      `${later > 0 ? `; ${later} later event(s) chain to it but no digest covers them yet` : ''}.`,
  );
  console.log(
    o.fingerprint
      ? `signed by the key with fingerprint ${fingerprint}, the one you gave.`
      : `signed by the key with fingerprint ${fingerprint}: compare it with the one the service's operator published.`,
  );
  return 0;
}

function report(problems) {
  for (const p of problems) console.log(`FAIL ${p}`);
  console.log(`the history does not verify: ${problems.length} problem(s)`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  },
);
