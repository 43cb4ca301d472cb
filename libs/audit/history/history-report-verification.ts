import type { ChainFault, StreamChainReport } from '../chain-check';
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
export function digestHtml(digest: DigestSection | null, firstPosition: number | undefined, chain: CheckedChain): string {
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
  const details = facts([
    ['Position', String(digest.position)],
    ['Signed at', escapeHtml(utcText(digest.signedAt))],
    ['Signed by', valueHtml(digest.signedBy)],
    ['Merkle root', hashHtml(digest.root)],
    ['Stream heads under the root', String(digest.streams)],
    ['Signer’s key fingerprint', hashHtml(digest.keyFingerprint)],
    ['Signature', signature],
  ]);
  return `${title}<p>The latest digest recorded in the log (stream <code>audit-digests</code>).</p>${details}${coverageHtml(digest, firstPosition, brokenToHead)}`;
}

/**
 * What the digest covers of the stream: its head at the digest's position, and the verdict on it:
 * bad when an inclusion proof fails, the signature does not hold, or the chain has a fault at or
 * before the head (`brokenToHead`: the head is then not what the events show).
 */
function coverageHtml(digest: DigestSection, first: number | undefined, brokenToHead: boolean): string {
  const later =
    digest.laterEvents > 0
      ? ` The ${digest.laterEvents} event(s) stored after position ${digest.position} are the next digest’s to cover.`
      : '';
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
  const caveat = !digest.signatureHolds
    ? ' But the digest’s signature does not hold: it proves nothing.'
    : brokenToHead
      ? ' But the chain does not hold up to that head (above): the events up to it are not those its hash was made from.'
      : '';
  const kind = digest.included === false || caveat !== '' ? 'bad' : 'ok';
  return (
    `<div class="verdict ${kind}" id="digest-result"><strong>${verdict}</strong>` +
    `At position ${digest.position} the trainee’s stream stood at ${head}. ${proof}${caveat}${later}</div>`
  );
}
