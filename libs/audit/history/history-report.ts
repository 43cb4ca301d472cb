import type { RecordedEvent, ChainFault, LogPosition } from '@app/event-sourcing';
import type { DigestSection } from '../stream-digest';
import { contractFor } from '@app/trainees/contract';
import { decodeTraineeEvent, evolve, initialTraineeState, type TraineeState } from '@app/trainees/decider';
import { traineeTimeline, type TimelineEntry } from '@app/trainees/read';
import type { ApiVersion, Trainee } from '@app/trainees/record';
import { escapeHtml, facts, hashHtml, PAGE_END, pageStart, utcText, valueHtml } from './history-report-html';
import { chainHtml, digestHtml, type CheckedChain } from './history-report-verification';

/**
 * The auditor's HTML report of one trainee (docs/operations.md "Trainee history"), in parts written in order as the stream is read in
 * chunks: {@link reportOpening}, {@link indexRows}, {@link TIMELINE_START}, {@link timelineEvents}, {@link reportClosing}.
 */

/** Everything is read before; rendering reads nothing. */
export interface HistoryReportInput {
  /** Personal values opened. */
  history: { traineeId: string; ukprn: string | null; events: readonly RecordedEvent[] };
  chain: CheckedChain;
  /** Null when no digest is recorded. */
  digest: DigestSection | null;
  /** The latest, as GET answers. */
  apiVersion: ApiVersion;
  /** ISO 8601, UTC. */
  generatedAt: string;
}

export interface HistoryReportHead extends Omit<HistoryReportInput, 'history'> {
  traineeId: string;
  /** From `TraineeRegistered`; null without one. */
  ukprn: string | null;
  events: number;
  /** Named when the digest covers none of the stream. */
  firstPosition: LogPosition | undefined;
}

/** `before` undefined: none yet; `item` names a placement's or degree's field (`placement <id> added`). */
export interface FieldChange {
  item?: string;
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The whole page at once: the verification, then the timeline oldest first with each event's actor, fields before → after (folded with
 * the decider's `evolve`), hashes, and the trainee after it as the version serializes it. Every value escaped. Pure; the same text
 * `writeHistoryReport` writes in chunks.
 */
export function renderHistoryReport(input: HistoryReportInput): string {
  const { history, ...rest } = input;
  const head: HistoryReportHead = {
    ...rest,
    traineeId: history.traineeId,
    ukprn: history.ukprn,
    events: history.events.length,
    firstPosition: history.events[0]?.position,
  };
  const entries = traineeTimeline(history.events);
  const faultsAt = faultsByRevision(input.chain);
  const { states } = foldStates(history.events, initialTraineeState);
  return (
    reportOpening(head) +
    indexRows(entries, faultsAt) +
    TIMELINE_START +
    timelineEvents(head, faultsAt, entries, states, null).join('\n') +
    reportClosing(head.traineeId)
  );
}

export function reportOpening(head: HistoryReportHead): string {
  const { chain, digest, apiVersion } = head;
  const body = [
    '<header>',
    '<h1>Trainee history</h1>',
    facts([
      ['Trainee id', escapeHtml(head.traineeId)],
      ['Provider (UKPRN)', valueHtml(head.ukprn)],
      ['Events', String(head.events)],
      ['Trainee shown in', `API version ${escapeHtml(apiVersion)}`],
      ['Report made', escapeHtml(utcText(head.generatedAt))],
    ]),
    '</header>',
    '<section id="verification">',
    '<h2>Verification</h2>',
    chainHtml(chain),
    digestHtml(digest, head.firstPosition, chain),
    '</section>',
    '<section id="timeline">',
    '<h2>Timeline</h2>',
    '<p class="muted">Oldest first. Every time is in UTC. “Before” is the value the field held just before the event.</p>',
    '<table class="index"><thead><tr><th>#</th><th>Time (UTC)</th><th>Event</th><th>Fields changed</th></tr></thead><tbody>',
  ];
  return pageStart(`Trainee history: ${head.traineeId}`) + body.join('\n');
}

export const TIMELINE_START = '</tbody></table>\n<ol class="timeline">\n';

export function reportClosing(traineeId: string): string {
  return (
    '\n</ol>\n</section>\n' +
    `<footer>Read from the event log, stream <code>${escapeHtml(`trainee-${traineeId}`)}</code>. ` +
    'This page holds personal data: keep it as the audit’s records are kept.</footer>' +
    PAGE_END
  );
}

export function faultsByRevision(chain: CheckedChain): ReadonlyMap<number, ChainFault[]> {
  const faultsAt = new Map<number, ChainFault[]>();
  for (const f of chain.faults) faultsAt.set(f.revision, [...(faultsAt.get(f.revision) ?? []), f]);
  return faultsAt;
}

/** One `<li>` per event; `before`: the trainee before the first (null at revision 0, or where it did not exist). */
export function timelineEvents(
  head: Pick<HistoryReportHead, 'apiVersion' | 'digest'>,
  faultsAt: ReadonlyMap<number, ChainFault[]>,
  entries: readonly TimelineEntry[],
  states: readonly (Trainee | null)[],
  before: Trainee | null,
): string[] {
  const { apiVersion, digest } = head;
  const serialize = (t: Trainee) => contractFor(apiVersion).output.serializeTrainee(t, { nested: true });
  return entries.map((entry, i) => {
    const prior = i === 0 ? before : states[i - 1];
    const uncovered = digest !== null && entry.position > digest.position;
    const state = states[i] && serialize(states[i]);
    return eventHtml(entry, fieldChanges(entry, prior), state, apiVersion, faultsAt.get(entry.revision) ?? [], uncovered);
  });
}

/** Null where it did not exist: before its registration, after its erasure. */
export function statesAfterEach(recorded: readonly RecordedEvent[]): (Trainee | null)[] {
  return foldStates(recorded, initialTraineeState).states;
}

/** Folded with the decider's `evolve` from `from` (the state the earlier events left); `state` after the last. */
export function foldStates(recorded: readonly RecordedEvent[], from: TraineeState): { states: (Trainee | null)[]; state: TraineeState } {
  let state = from;
  const states = recorded.map((r) => {
    const event = decodeTraineeEvent(r);
    if (event) state = evolve(state, event);
    return state.exists ? state.trainee : null;
  });
  return { states, state };
}

type Item = Record<string, unknown>;

/** `before` null: none. A placement or degree shows a row per field (its id in the name), a removed one a single row. */
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
  // An update's entry holds the whole item: only what moved is shown, not its timestamps.
  const moved = ([k, after]: [string, unknown]) =>
    old === undefined || (k !== 'created_at' && k !== 'updated_at' && JSON.stringify(old[k]) !== JSON.stringify(after));
  return Object.entries(item)
    .filter(([k, after]) => k !== `${kind}_id` && moved([k, after]))
    .map(([k, after]) => ({ item: name, field: k, before: old?.[k], after }));
}

/** Revision, time (UTC), type (with a badge where `faultsAt` has a fault), the fields changed, each linked to the timeline. */
export function indexRows(entries: readonly TimelineEntry[], faultsAt: ReadonlyMap<number, ChainFault[]>): string {
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
  return rows.join('');
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
