import type { ChainFault, StreamChainReport, LogPosition } from '@app/event-sourcing';
import type { DigestSection } from '../stream-digest';
import { escapeHtml, facts, hashHtml, utcText, valueHtml } from './history-report-html';

/**
 * The verification at the top of the auditor's HTML report (`history-report.ts`; docs/operations.md
 * "Trainee history"): the stream's hash chain, and the latest signed digest with what it covers.
 */

/** A stream's chain check as the report shows it: `checkStreamChain`'s report and how many events it checked. */
export type CheckedChain = StreamChainReport & { events: number };

/** A fault as one line of text: its revision, kind and detail. */
function faultText(f: ChainFault): string {
  return `revision ${f.revision}: ${f.kind}: ${f.detail}`;
}

/**
 * The chain's part of the verification: the verdict of `chain` (`checkStreamChain` of the stream as
 * stored, and how many events it checked), each fault linked to its event, and the head hash.
 */
export function chainHtml(chain: CheckedChain): string {
  const head = `<p>Head hash: ${hashHtml(chain.headHash)}</p>`;
  if (chain.faults.length === 0) {
    return (
      '<div class="verdict ok" id="chain-result"><strong>The hash chain holds</strong>' +
      `All ${chain.events} events of the stream match their hashes, each chained to the one before it.</div>${head}`
    );
  }
  const items = chain.faults.map((f) => `<li><a href="#rev-${f.revision}">${escapeHtml(faultText(f))}</a></li>`).join('');
  return (
    `<div class="verdict bad" id="chain-result"><strong>The hash chain does not hold: ${chain.faults.length} fault(s)</strong>` +
    `Checked ${chain.events} events. Each fault, by revision:<ul class="faults">${items}</ul></div>${head}`
  );
}

/**
 * The signed digest's part of the verification (`digest`: `digestSection` of the stream, null when
 * no digest is recorded); `firstPosition` the stream's first event's (named when the digest covers
 * none), `chain` its check (a fault at or before the covered head taints it).
 */
export function digestHtml(digest: DigestSection | null, firstPosition: LogPosition | undefined, chain: CheckedChain): string {
  const title = '<h3>Signed digest</h3>';
  if (digest === null) {
    return (
      `${title}<div class="verdict warn" id="digest-result"><strong>No signed digest is recorded in this log</strong>` +
      'Nothing here was checked against a digest: the chain alone cannot show events taken from the end of the stream, ' +
      'or put in with every later hash computed afresh. <code>admin audit digest</code> signs one.</div>'
    );
  }
  const brokenToHead = digest.head !== null && chain.faults.some((f) => f.revision <= digest.head!.revision);
  const signature = digest.signatureHolds
    ? '<span>holds</span>'
    : '<strong class="badge">does NOT hold: the recorded digest was changed, or is not a digest</strong>';
  const trusted = digest.trustedKey;
  const heldTo =
    trusted === null
      ? '<strong class="badge">none configured</strong>'
      : `${hashHtml(trusted.fingerprint)} (${escapeHtml(trusted.name)})${trusted.fingerprint === digest.keyFingerprint ? '' : ' <strong class="badge">not the signer’s</strong>'}`;
  const details = facts([
    ['Position', String(digest.position)],
    ['Signed at', escapeHtml(utcText(digest.signedAt))],
    ['Signed by', valueHtml(digest.signedBy)],
    ['Merkle root', hashHtml(digest.root)],
    ['Stream heads under the root', String(digest.streams)],
    ['Signer’s key fingerprint', hashHtml(digest.keyFingerprint)],
    ['Signature', signature],
    ['Key trusted', heldTo],
  ]);
  return `${title}<p>The latest digest recorded in the log (stream <code>audit-digests</code>).</p>${details}${coverageHtml(digest, firstPosition, brokenToHead)}`;
}

/**
 * Why the digest proves nothing, as a sentence for the auditor, with the verdict's kind: its
 * signature does not hold, or another key than the trusted one signed it (bad); no key is trusted
 * (warn: a digest carries its own key, so anyone can sign one); null when it is the trusted key's.
 */
function untrusted(digest: DigestSection): { kind: 'bad' | 'warn'; title: string; why: string } | null {
  const { trustedKey } = digest;
  if (!digest.signatureHolds)
    return { kind: 'bad', title: 'The digest’s signature does NOT hold', why: 'The recorded digest was changed: it proves nothing.' };
  if (trustedKey === null)
    return {
      kind: 'warn',
      title: 'No trusted key to hold the digest to',
      why:
        'The digest carries its own key, and anyone can sign a digest with a key of their own: compare the signer’s key fingerprint ' +
        'with the one the operator published, or make the report again with <code>--fingerprint</code> or the deployment’s ' +
        '<code>AUDIT_SIGNING_KEY_FILE</code> configured.',
    };
  if (trustedKey.fingerprint === digest.keyFingerprint) return null;
  return {
    kind: 'bad',
    title: `The digest was NOT signed by ${escapeHtml(trustedKey.name)}`,
    why:
      `It was signed by the key with fingerprint <span class="hash">${escapeHtml(digest.keyFingerprint)}</span>, not ` +
      `<span class="hash">${escapeHtml(trustedKey.fingerprint)}</span>. Whoever holds that other key could have signed any ` +
      'history: this digest proves nothing about the log, and nothing below is vouched for by a signature.',
  };
}

/**
 * What the digest covers of the stream: its head at the digest's position, and the verdict on it,
 * held to the trusted key ({@link untrusted}: a digest another key signed, or with a signature that
 * does not hold, is a failed verdict whatever it covers; with no trusted key, a warning); else bad
 * when an inclusion proof fails or the chain has a fault at or before the head (`brokenToHead`:
 * the head is then not what the events show).
 */
function coverageHtml(digest: DigestSection, first: LogPosition | undefined, brokenToHead: boolean): string {
  const later =
    digest.laterEvents > 0
      ? ` The ${digest.laterEvents} event(s) stored after position ${digest.position} are the next digest’s to cover.`
      : '';
  const distrust = untrusted(digest);
  if (distrust?.kind === 'bad')
    return `<div class="verdict bad" id="digest-result"><strong>${distrust.title}</strong>${distrust.why}${later}</div>`;
  if (digest.head === null) {
    return (
      '<div class="verdict warn" id="digest-result"><strong>The digest covers none of this trainee’s events</strong>' +
      `It was signed at position ${digest.position}, before the trainee’s first event${first === undefined ? '' : ` (position ${first})`}.${later}</div>`
    );
  }
  const head = `revision ${digest.head.revision}, hash <span class="hash">${escapeHtml(digest.head.hash)}</span>`;
  const [verdict, proof] =
    digest.included === true
      ? ['The trainee’s head is under the signed root', 'An inclusion proof shows it under the signed Merkle root.']
      : digest.included === false
        ? ['The trainee’s head is NOT under the signed root', 'The inclusion proof does not lead to the signed Merkle root.']
        : [
            'The digest covers the trainee’s head',
            'This report does not prove the head is under the root; <code>admin audit verify --digest &lt;file&gt;</code> ' +
              'with the file the digest was written to checks every head.',
          ];
  const caveat = brokenToHead
    ? ' But the chain does not hold up to that head (above): the events up to it are not those its hash was made from.'
    : '';
  const kind = digest.included === false || caveat !== '' ? 'bad' : distrust === null ? 'ok' : 'warn';
  const unanchored = distrust === null ? '' : ` <strong>${distrust.title}.</strong> ${distrust.why}`;
  return (
    `<div class="verdict ${kind}" id="digest-result"><strong>${verdict}</strong>` +
    `At position ${digest.position} the trainee’s stream stood at ${head}. ${proof}${caveat}${unanchored}${later}</div>`
  );
}
