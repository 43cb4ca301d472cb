import type { ChainFault, RecordedEvent, StreamChainReport } from '@app/event-sourcing';
import type { DigestSection } from '@app/runtime/audit';
import { contractFor } from '@app/trainees/contract';
import { decodeTraineeEvent, evolve, initialTraineeState, type TraineeState } from '@app/trainees/decider';
import { traineeTimeline, type TimelineEntry } from '@app/trainees/read';
import type { ApiVersion, Trainee } from '@app/trainees/record';
import { escapeHtml, page, utcText, valueHtml } from './history-report-html';

/**
 * The auditor's report of one trainee's history as one self-contained HTML page
 * (`trainee history <trainee_id> --format html`, docs/operations.md "Trainee history").
 */

/** What the report is made of; everything is read before, the rendering reads nothing. */
export interface HistoryReportInput {
  /** The trainee's stream, as `loadTraineeHistory` reads it (personal values opened): its stored id, owner and events. */
  history: { traineeId: string; ukprn: string | null; events: readonly RecordedEvent[] };
  /** `checkStreamChain` of the same stream as stored, and how many events it checked. */
  chain: StreamChainReport & { events: number };
  /** The latest signed digest and what it says of the stream (`digestSection`); null when no digest is recorded. */
  digest: DigestSection | null;
  /** The API version whose shape each step's trainee is shown in (the latest, as GET answers it). */
  apiVersion: ApiVersion;
  /** When the report was made (ISO 8601, UTC). */
  generatedAt: string;
}

/**
 * One changed field of an event: its value before the event (undefined: none yet) and after it;
 * for a field of a placement or degree, `item` names it (`placement <id> added`).
 */
export interface FieldChange {
  item?: string;
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The report as an HTML document (UTF-8 text): the verification (the stream's hash chain, each
 * fault by revision; the signed digest and whether it covers the stream's head), then the
 * timeline, oldest first: each event's time (UTC), type, actor (provider, token id, API version,
 * request id), the fields it changed with their values before → after (found by folding the
 * stream with the decider's `evolve`), its hash and previous hash, and the trainee as it stood
 * after it (collapsed), as `contractFor(apiVersion).output.serializeTrainee` shapes it. Every value
 * is escaped. Pure: the same input gives the same text.
 */
export function renderHistoryReport(input: HistoryReportInput): string {
  const { history, chain, digest, apiVersion, generatedAt } = input;
  const entries = traineeTimeline(history.events);
  const states = statesAfterEach(history.events);
  const faultsAt = new Map<number, ChainFault[]>();
  for (const f of chain.faults) faultsAt.set(f.revision, [...(faultsAt.get(f.revision) ?? []), f]);
  const serialize = (t: Trainee) => contractFor(apiVersion).output.serializeTrainee(t, { nested: true });
  const events = entries.map((entry, i) => {
    const before = i === 0 ? null : states[i - 1];
    const uncovered = digest !== null && entry.position > digest.position;
    const state = states[i] && serialize(states[i]);
    return eventHtml(entry, fieldChanges(entry, before), state, apiVersion, faultsAt.get(entry.revision) ?? [], uncovered);
  });
  const body = [
    '<header>',
    '<h1>Trainee history</h1>',
    facts([
      ['Trainee id', escapeHtml(history.traineeId)],
      ['Provider (UKPRN)', valueHtml(history.ukprn)],
      ['Events', String(entries.length)],
      ['Trainee shown in', `API version ${escapeHtml(apiVersion)}`],
      ['Report made', escapeHtml(utcText(generatedAt))],
    ]),
    '</header>',
    '<section id="verification">',
    '<h2>Verification</h2>',
    chainHtml(chain),
    digestHtml(digest, history.events, chain),
    '</section>',
    '<section id="timeline">',
    '<h2>Timeline</h2>',
    '<p class="muted">Oldest first. Every time is in UTC. “Before” is the value the field held just before the event.</p>',
    indexHtml(entries, faultsAt),
    `<ol class="timeline">\n${events.join('\n')}\n</ol>`,
    '</section>',
    `<footer>Read from the event log, stream <code>${escapeHtml(`trainee-${history.traineeId}`)}</code>. ` +
      'This page holds personal data: keep it as the audit’s records are kept.</footer>',
  ];
  return page(`Trainee history: ${history.traineeId}`, body.join('\n'));
}

/** The trainee after each event of `recorded` (null where it did not exist: before its registration, after its erasure). */
export function statesAfterEach(recorded: readonly RecordedEvent[]): (Trainee | null)[] {
  let state: TraineeState = initialTraineeState;
  return recorded.map((r) => {
    const event = decodeTraineeEvent(r);
    if (event) state = evolve(state, event);
    return state.exists ? state.trainee : null;
  });
}

type Item = Record<string, unknown>;

/**
 * What `entry` changed, field by field, with each field's value in `before` (the trainee before the
 * event; null: none). A placement or degree shows one row per field of the item (its id in the
 * field's name), a removed one a single row. An erasure shows its reason and who erased.
 */
export function fieldChanges(entry: TimelineEntry, before: Trainee | null): FieldChange[] {
  if (entry.event_type === 'TraineeErased')
    return Object.entries(entry.changes).map(([field, after]) => ({ field, before: undefined, after }));
  const rows: FieldChange[] = [];
  for (const field of entry.changed_fields) {
    const after = entry.changes[field];
    if (field === 'placements' || field === 'degrees') {
      const action = /(Added|Updated|Removed)$/.exec(entry.event_type)?.[1]?.toLowerCase() ?? 'changed';
      rows.push(...itemChanges(field, action, after as Item, before ? (before[field] as unknown as Item[]) : []));
    } else if (before === null) {
      rows.push({ field, before: undefined, after });
    } else {
      const top = field !== 'details' && Object.prototype.hasOwnProperty.call(before, field);
      const old = top ? (before as unknown as Item)[field] : (before.details as unknown as Item)[field];
      rows.push({ field, before: old, after });
    }
  }
  return rows;
}

function itemChanges(field: 'placements' | 'degrees', action: string, item: Item, previous: Item[]): FieldChange[] {
  const kind = field === 'placements' ? 'placement' : 'degree';
  const id = item[`${kind}_id`];
  const old = previous.find((x) => x[`${kind}_id`] === id);
  const name = `${kind} ${typeof id === 'string' ? id : JSON.stringify(id)} ${action}`;
  if (item.removed === true) return [{ item: name, field: `the ${kind}`, before: old, after: 'removed' }];
  // An update's entry holds the whole item as it then stood (docs/operations.md "Trainee history"): only what moved is
  // shown, and not its timestamps (the event's time says when).
  const moved = ([k, after]: [string, unknown]) =>
    old === undefined || (k !== 'created_at' && k !== 'updated_at' && JSON.stringify(old[k]) !== JSON.stringify(after));
  return Object.entries(item)
    .filter(([k, after]) => k !== `${kind}_id` && moved([k, after]))
    .map(([k, after]) => ({ item: name, field: k, before: old?.[k], after }));
}

/** The events at a glance, each linked to its place in the timeline: revision, time (UTC), type, the fields it changed. */
function indexHtml(entries: TimelineEntry[], faultsAt: ReadonlyMap<number, ChainFault[]>): string {
  const shown = 6;
  const rows = entries.map((e) => {
    const fields =
      e.changed_fields.slice(0, shown).join(', ') + (e.changed_fields.length > shown ? `, … (${e.changed_fields.length} in all)` : '');
    const fault = faultsAt.has(e.revision) ? ' <span class="badge">fault</span>' : '';
    return (
      `<tr><td><a href="#rev-${e.revision}">#${e.revision}</a></td><td>${escapeHtml(utcText(e.occurred_at))}</td>` +
      `<td>${escapeHtml(e.event_type)}${fault}</td><td><code>${escapeHtml(fields)}</code></td></tr>`
    );
  });
  return (
    '<table class="index"><thead><tr><th>#</th><th>Time (UTC)</th><th>Event</th><th>Fields changed</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

function facts(rows: [label: string, html: string][]): string {
  return `<dl class="facts">${rows.map(([label, html]) => `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`).join('')}</dl>`;
}

function hashHtml(hash: string | null): string {
  return hash === null ? '<span class="none">none</span>' : `<span class="hash">${escapeHtml(hash)}</span>`;
}

function faultText(f: ChainFault): string {
  return `revision ${f.revision}: ${f.kind}: ${f.detail}`;
}

function chainHtml(chain: HistoryReportInput['chain']): string {
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
 * The signed digest's part of the verification; `events` the stream's (to name the first one when
 * the digest covers none), `chain` its check (a fault at or before the covered head taints it).
 */
function digestHtml(digest: DigestSection | null, events: readonly RecordedEvent[], chain: HistoryReportInput['chain']): string {
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
  return `${title}<p>The latest digest recorded in the log (stream <code>audit-digests</code>).</p>${details}${coverageHtml(digest, events, brokenToHead)}`;
}

/**
 * What the digest covers of the stream: its head at the digest's position, and the verdict on it:
 * bad when an inclusion proof fails, the signature does not hold, or the chain has a fault at or
 * before the head (`brokenToHead`: the head is then not what the events show).
 */
function coverageHtml(digest: DigestSection, events: readonly RecordedEvent[], brokenToHead: boolean): string {
  const later =
    digest.laterEvents > 0
      ? ` The ${digest.laterEvents} event(s) stored after position ${digest.position} are the next digest’s to cover.`
      : '';
  if (digest.head === null) {
    const first = events[0]?.position;
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

function eventHtml(
  entry: TimelineEntry,
  changes: FieldChange[],
  state: unknown,
  apiVersion: ApiVersion,
  faults: ChainFault[],
  afterDigest: boolean,
): string {
  const badges =
    faults.map((f) => `<span class="badge" title="${escapeHtml(f.detail)}">${escapeHtml(f.kind)}</span>`).join('') +
    (afterDigest ? '<span class="tag">after the latest digest</span>' : '');
  const actor = [
    ['Provider', entry.provider_ukprn],
    ['Token id', entry.token_id],
    ['API version', entry.api_version],
    ['Request id', entry.request_id],
    ['Position', String(entry.position)],
  ]
    .map(([label, value]) => `<div><dt>${escapeHtml(label!)}</dt><dd>${valueHtml(value)}</dd></div>`)
    .join('');
  const stateHtml =
    state === null
      ? '<p class="muted">After this event the trainee has no record to show (erased).</p>'
      : `<details><summary>The trainee after this event (API version ${escapeHtml(apiVersion)})</summary>` +
        `<pre>${escapeHtml(JSON.stringify(state, null, 2))}</pre></details>`;
  return [
    `<li class="event${faults.length > 0 ? ' faulty' : ''}" id="rev-${entry.revision}">`,
    '<div class="event-head">',
    `<span class="rev">#${entry.revision}</span>`,
    `<time datetime="${escapeHtml(entry.occurred_at)}">${escapeHtml(utcText(entry.occurred_at))}</time>`,
    `<span class="type">${escapeHtml(entry.event_type)}</span>${badges}`,
    '</div>',
    `<dl class="actor">${actor}</dl>`,
    changesHtml(changes),
    facts([
      ['Hash', hashHtml(entry.hash)],
      ['Previous hash', hashHtml(entry.previous_hash)],
    ]),
    stateHtml,
    '</li>',
  ].join('\n');
}

function changesHtml(changes: FieldChange[]): string {
  if (changes.length === 0) return '<p class="muted">No field changed.</p>';
  const rows = changes.map(
    (c, i) =>
      (c.item !== undefined && c.item !== changes[i - 1]?.item ? `<tr class="item"><th colspan="4">${escapeHtml(c.item)}</th></tr>` : '') +
      `<tr><td><code>${escapeHtml(c.field)}</code></td><td class="old">${valueHtml(c.before)}</td>` +
      `<td class="arrow">→</td><td class="new">${valueHtml(c.after)}</td></tr>`,
  );
  return (
    '<table class="changes"><colgroup><col class="field"><col><col class="arrow"><col></colgroup>' +
    `<thead><tr><th>Field</th><th>Before</th><th></th><th>After</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}
