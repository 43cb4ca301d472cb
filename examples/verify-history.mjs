#!/usr/bin/env node
// Verifies one trainee's history against a signed digest, trusting nothing of the service but the
// key fingerprint its operator published (docs/operations.md "Verifying the history"). Standalone:
// Node.js 20 and its own `node:crypto`, no import from the project, no package.
//
//   node examples/verify-history.mjs --api <base url> --token <token> --trainee <id> [--api-version v2026.1]
//                                    --fingerprint <hex> [--save <dir>]
//   node examples/verify-history.mjs --digest <file> --history <file> [--trainee <id>] --fingerprint <hex>
//
// The first form fetches `GET /api/<v>/audit/digest?trainee_id=<id>` and every page of
// `GET /api/<v>/trainees/<id>/history` (and with --save writes them to <dir>/digest.json and
// <dir>/history.json); the second reads such files: the digest answer (or the bare digest), and the
// history as one answer, an array of pages or entries, or JSON lines (`admin trainee history --json`).
//
// It checks, by the rules of docs/DESIGN.md "Verifiable history" and "Signed digests":
//  1. the digest's Ed25519 signature holds for its public key, and that key's fingerprint is the
//     one given with --fingerprint, the key the auditor trusts: a digest carries its own key, so
//     anyone can sign one; without --fingerprint nothing ties it to the service (exit 3);
//  2. every event is of the stream `trainee-<id>` of the trainee asked about (--trainee, or in the
//     second form the `trainee_id` of the saved digest answer), and so is the proof;
//  3. every event's hash is SHA-256 of the text the rule its metadata names makes of it (`metadata`:
//     its metadata as stored without `hash`; `bytes`: UTF-8 length):
//     version 2 (`"chainVersion":2` before `previousHash`): `JSON.stringify(["chain/2", previous_hash,
//       stream_id, revision, type, event_id, metadata's occurredAt or null, bytes(data), bytes(metadata)])`,
//       a line feed, its data as stored, then its metadata;
//     version 1 (no `chainVersion`): `JSON.stringify([previous_hash, stream_id, revision, type])`, a
//       line feed, its data as stored, a line feed, its metadata;
//     each chains to the one before, from revision 0 with no gap; an event without a hash after
//     chained ones, or of version 1 after version 2, is altered (the server's rule, libs/audit/chain-check.ts);
//  4. the stream's head as of the digest is a leaf of the digest's Merkle tree (RFC 9162 §2.1.3).
// Exit codes (also in --help): 0 every check holds, against the key given; 1 a check fails (one
// line each); 2 bad arguments or unreadable input; 3 unanchored: no --fingerprint was given, so the
// rest held against a key nothing vouches for.
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

/**
 * The value of the metadata text's last key when that key is `key` and its value null or 64
 * lower-case hex digits, as the store writes it, and the text without it; null otherwise. The
 * server reads the chain keys so (`readChainKeys`, libs/event-sourcing/hash-chain.ts), from the
 * text's end alone.
 */
function lastKey(text, key) {
  const opening = `"${key}":`;
  const valueLength = text.endsWith('null}') ? 4 : 66;
  const start = text.length - 1 - valueLength - opening.length;
  if (start < 1 || !text.endsWith('}') || !text.startsWith(opening, start)) return null;
  let value = null;
  if (valueLength === 66) {
    value = text.slice(start + opening.length + 1, text.length - 2);
    if (text[text.length - 2] !== '"' || text[start + opening.length] !== '"' || !HEX64.test(value)) return null;
  }
  const before = text[start - 1];
  if (before === '{') return start === 1 ? { value, rest: '{}' } : null;
  return before === ',' ? { value, rest: `${text.slice(0, start - 1)}}` } : null;
}

/**
 * The chain keys of a stored metadata text: `hash` (null without one), `previousHash` (a hex hash,
 * null, or undefined when the text has no such key), `hashed`, the text without its `hash` key, and
 * `version`, the rule the hash was made by: 2 when the text without `hash` and `previousHash` ends
 * with `"chainVersion":2`, 1 when it does not, 0 without a hash.
 */
function chainKeys(metadata) {
  const own = lastKey(metadata, 'hash');
  if (own === null || own.value === null) return { hash: null, previousHash: undefined, hashed: metadata, version: 0 };
  const previous = lastKey(own.rest, 'previousHash');
  const version = previous !== null && endsWithVersion(previous.rest) ? 2 : 1;
  return { hash: own.value, previousHash: previous === null ? undefined : previous.value, hashed: own.rest, version };
}

/** True when a JSON object's text ends with the key `"chainVersion":2`, first or after a comma. */
function endsWithVersion(text) {
  const entry = '"chainVersion":2}';
  if (!text.endsWith(entry)) return false;
  const before = text[text.length - entry.length - 1];
  return before === ',' || (before === '{' && text.length === entry.length + 1);
}

/** The metadata text's `occurredAt` when it is a string; null otherwise (or when the text is not JSON). */
function occurredAtIn(metadata) {
  try {
    const at = JSON.parse(metadata)?.occurredAt;
    return typeof at === 'string' ? at : null;
  } catch {
    return null;
  }
}

/** The hash of entry `e` chained to `previous`, by the rule `keys` name (version 2, else version 1). */
function hashOf(previous, e, keys) {
  const { hashed } = keys;
  if (keys.version !== 2)
    return sha256(`${JSON.stringify([previous, e.stream_id, e.revision, e.event_type])}\n${e.stored_data}\n${hashed}`).toString('hex');
  const header = [
    'chain/2',
    previous,
    e.stream_id,
    e.revision,
    e.event_type,
    e.event_id ?? null,
    occurredAtIn(hashed),
    Buffer.byteLength(e.stored_data),
    Buffer.byteLength(hashed),
  ];
  return sha256(`${JSON.stringify(header)}\n${e.stored_data}${hashed}`).toString('hex');
}

/**
 * The faults of the chain of `entries` (one stream, every revision from 0), one line per fault, and
 * the hash at each revision, by the server's rule (`checkStreamChain`, libs/audit/chain-check.ts):
 * an event stored before the chain began (no hash) is hashed by the version 1 rule, chained to the
 * one before; one without a hash after a chained event is altered, as is one of version 1 after one
 * of version 2, and a hashed one that names no previous hash. Each hashed event is recomputed from the link it names; the chain goes on from the
 * hash each event was stored with (the one the next event was chained to), not from the one
 * recomputed, and a link is not held against the event before a gap or a fault, so one altered
 * event is one line, as `admin audit verify` reports it, not a fault at every later revision.
 */
function checkChain(entries) {
  const faults = [];
  const hashes = [];
  let previous = null;
  let expected = 0;
  let version = 0;
  let faulted = false;
  entries.forEach((e) => {
    const before = faults.length;
    const gap = e.revision !== expected;
    if (gap) faults.push(`revision ${expected}: missing (the history goes on at revision ${e.revision})`);
    expected = e.revision + 1;
    const keys = chainKeys(e.stored_metadata);
    const { hash: stored, previousHash } = keys;
    // A hashed event is checked against the link it names; whether that is the event before is asked
    // after, and not after a gap or a fault, which already showed there.
    const recomputed = hashOf(stored === null ? previous : (previousHash ?? null), e, keys);
    const link = stored ?? recomputed;
    if (stored === null) {
      if (version > 0) faults.push(`revision ${e.revision}: altered (it has no hash, though the events before it are chained)`);
    } else if (keys.version < version)
      faults.push(`revision ${e.revision}: altered (chained by version ${keys.version} of the rule, after events of version ${version})`);
    else if (keys.version === 2 && typeof e.event_id !== 'string')
      faults.push(`revision ${e.revision}: the history does not show its event_id, which its hash covers`);
    else if (previousHash === undefined || stored !== recomputed)
      faults.push(`revision ${e.revision}: altered (its stored form does not make its hash)`);
    else if (previousHash !== previous && !gap && !faulted) faults.push(`revision ${e.revision}: not chained to the event before it`);
    if (e.hash !== null && e.hash !== (stored ?? null)) faults.push(`revision ${e.revision}: the hash shown is not the event's`);
    if (e.previous_hash !== null && e.previous_hash !== (previousHash ?? null))
      faults.push(`revision ${e.revision}: previous_hash shown is not the chain's`);
    version = Math.max(version, keys.version);
    faulted = faults.length > before;
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

const USAGE = `usage: verify-history.mjs (--api URL --token TOKEN --trainee ID | --digest FILE --history FILE [--trainee ID])
                          --fingerprint HEX [--api-version v2026.1] [--save DIR]

Verifies one trainee's history against the service's latest signed digest, trusting only the key
whose fingerprint (SHA-256 of the Ed25519 public key's 32 bytes, hex) you give with --fingerprint,
as the service's operator published it.

Exit codes:
  0  every check holds, against the key given
  1  a check fails: one line each, starting FAIL
  2  bad arguments or unreadable input
  3  unanchored: no --fingerprint was given; the rest held, but against the key the digest carries,
     which anyone can make: compare the fingerprint printed with the one the operator published`;

/** The exit code of a run without --fingerprint whose checks all held. */
const UNANCHORED = 3;

/** The options, or null (after printing why and the usage) for bad arguments. */
function options() {
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (o.help) return { ...o, help: true };
  const online = o.api && o.token && o.trainee;
  const bad = !(online || (o.digest && o.history))
    ? 'say where the history is'
    : o.fingerprint !== undefined && !HEX64.test(o.fingerprint.toLowerCase())
      ? '--fingerprint: 64 hex digits'
      : null;
  if (bad === null) return o;
  console.error(`${bad}\n${USAGE}`);
  return null;
}

/** The digest answer and the history's entries, fetched (and with --save written) or read from files. */
async function evidence(o) {
  if (o.api && o.token && o.trainee) {
    const fetched = await fetchAll({ api: o.api, token: o.token, trainee: o.trainee, version: o['api-version'] });
    if (o.save) {
      mkdirSync(o.save, { recursive: true });
      writeFileSync(join(o.save, 'digest.json'), `${JSON.stringify(fetched.digest, null, 2)}\n`);
      writeFileSync(join(o.save, 'history.json'), `${JSON.stringify(fetched.pages)}\n`);
    }
    return { answer: fetched.digest, entries: entriesOf(JSON.stringify(fetched.pages)) };
  }
  return { answer: JSON.parse(readFileSync(o.digest, 'utf8')), entries: entriesOf(readFileSync(o.history, 'utf8')) };
}

/**
 * What is wrong before the chain is checked: the digest's format, signature and key, the trainee
 * asked about (`trainee`, null when none was named) and every event's stream, the events' shape.
 */
function firstProblems(digest, answer, entries, o) {
  const problems = [];
  if (digest.format !== FORMAT) problems.push(`the digest is not of format ${FORMAT}`);
  if (!signatureHolds(digest)) problems.push('the digest’s signature does not hold');
  const fingerprint = fingerprintOf(digest);
  if (o.fingerprint && o.fingerprint.toLowerCase() !== fingerprint)
    problems.push(`the digest was signed by key ${fingerprint}, not ${o.fingerprint}`);
  const asked = o.trainee ?? answer.data?.trainee_id ?? null;
  if (asked === null) problems.push('no trainee is named: give --trainee, or the digest answer asked with trainee_id');
  const stream = `trainee-${asked}`.toLowerCase();
  const answered = answer.data?.trainee_id;
  if (asked !== null && typeof answered === 'string' && answered.toLowerCase() !== asked.toLowerCase())
    problems.push(`the digest answer is of trainee ${answered}, not ${asked}`);
  if (entries.length === 0) problems.push('the history holds no event');
  if (entries.some((e) => typeof e.stored_data !== 'string' || typeof e.stored_metadata !== 'string' || typeof e.stream_id !== 'string'))
    problems.push('the history does not show each event as stored (stream_id, stored_data, stored_metadata)');
  else if (asked !== null) {
    const others = [...new Set(entries.map((e) => e.stream_id).filter((s) => s.toLowerCase() !== stream))];
    if (others.length > 0) problems.push(`the history holds events of ${others.join(', ')}, not of the trainee asked about (${asked})`);
  }
  return problems;
}

/** What is wrong with the proof that the stream's head (`hashes`: the hash at each revision) is in the digest's tree. */
function proofProblems(digest, stream, hashes) {
  const proof = digest.inclusion;
  if (!proof) return [`the digest of position ${digest.position} holds no head of ${stream}: ask for a later digest`];
  const problems = [];
  if (proof.stream_id !== stream) problems.push(`the proof is of ${proof.stream_id}, not ${stream}`);
  if (hashes[proof.revision] !== proof.hash || !HEX64.test(proof.hash))
    problems.push(`revision ${proof.revision}: not the event the digest signed as the stream's head`);
  const leaf = sha256(Buffer.of(0), JSON.stringify([proof.stream_id, proof.revision, proof.hash]));
  const path = proof.audit_path.map((h) => Buffer.from(h, 'hex'));
  const root = rootFromPath(proof.leaf_index, digest.streams, leaf, path);
  if (root?.toString('hex') !== digest.root) problems.push('the stream’s head is not in the digest’s Merkle tree');
  return problems;
}

async function main() {
  const o = options();
  if (o === null) return 2;
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  const { answer, entries } = await evidence(o);
  const digest = answer.data ?? answer;
  const problems = firstProblems(digest, answer, entries, o);
  if (problems.length > 0) return report(problems);

  const { faults, hashes } = checkChain(entries);
  const stream = entries[0].stream_id;
  problems.push(...faults, ...proofProblems(digest, stream, hashes));
  if (problems.length > 0) return report(problems);
  const proof = digest.inclusion;
  const later = entries.length - (proof.revision + 1);
  console.log(
    `${stream}: ${entries.length} events, every hash holds and chains from revision 0; revision ${proof.revision} is the head ` +
      `signed in the digest of position ${digest.position} (${digest.time}, ${digest.streams} streams, root ${digest.root})` +
      `${later > 0 ? `; ${later} later event(s) chain to it but no digest covers them yet` : ''}.`,
  );
  const fingerprint = fingerprintOf(digest);
  if (o.fingerprint) {
    console.log(`signed by the key with fingerprint ${fingerprint}, the one you gave.`);
    return 0;
  }
  console.log(
    `UNANCHORED: signed by the key with fingerprint ${fingerprint}, which the digest itself carries: anyone can sign a digest ` +
      'with a key of their own. Nothing is proven until you compare it with the fingerprint the service’s operator published, ' +
      'or run again with --fingerprint.',
  );
  return UNANCHORED;
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
