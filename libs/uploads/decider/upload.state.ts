/**
 * An upload as its events leave it, and `evolve`, which applies one event (pure).
 *
 * Statuses, after the real service's bulk add (uploaded → pending → validated → in progress →
 * succeeded / failed / cancelled), where receiving the file and queueing its check are one event:
 * `pending` (received, not checked yet), `validated` (checked, no errors), `failed` (checked, with
 * errors: it can only be cancelled or replaced by a new upload), `in_progress` (submitted, rows
 * being written), `succeeded` (every row has its outcome, appended or failed), `cancelled`.
 */
import type { RowError, RowMessage, RowTarget, UploadEvent, UploadKind } from './upload.events';

export const UPLOAD_STATUSES = ['pending', 'validated', 'failed', 'in_progress', 'succeeded', 'cancelled'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** What became of one submitted row. */
export type RowOutcome = { row: number; trainee_id: string } | { row: number; errors: RowMessage[] };

export interface UploadState {
  exists: boolean;
  /** The data key is destroyed: the upload answers as unknown. */
  purged: boolean;
  /** An erasure asked for it while it was being submitted: the submit's end purges it. */
  purge_requested: boolean;
  upload_id: string | null;
  ukprn: string | null;
  kind: UploadKind | null;
  api_version: string | null;
  status: UploadStatus | null;
  /** The file's size in bytes and SHA-256 (hex); the digest null when the file is in the log itself (older logs). */
  byte_count: number;
  file_sha256: string | null;
  /** Spreadsheet row numbers of the trainee rows, ascending (empty until checked). */
  rows: readonly number[];
  /** How many messages the check found about the rows. */
  error_count: number;
  /**
   * The check's messages, in row order, when the log holds them (older logs; [] when there are
   * none); null when they are kept outside the log, under `messages_sha256`.
   */
  errors: readonly RowError[] | null;
  messages_sha256: string | null;
  /** Each submitted row and its trainee, in row order (empty until submitted). */
  submission: readonly RowTarget[];
  /** The person who submitted it (their `sub`); null before a submit, or for a submit with a token. */
  submitted_by: string | null;
  /** The outcome of each submitted row that has one, by row number. */
  outcomes: Readonly<Record<number, RowOutcome>>;
  received_at: string | null;
  checked_at: string | null;
  submitted_at: string | null;
  /** When it completed or was cancelled. */
  ended_at: string | null;
  last_event_at: string | null;
}

export const initialUploadState: UploadState = {
  exists: false,
  purged: false,
  purge_requested: false,
  upload_id: null,
  ukprn: null,
  kind: null,
  api_version: null,
  status: null,
  byte_count: 0,
  file_sha256: null,
  rows: [],
  error_count: 0,
  errors: [],
  messages_sha256: null,
  submission: [],
  submitted_by: null,
  outcomes: {},
  received_at: null,
  checked_at: null,
  submitted_at: null,
  ended_at: null,
  last_event_at: null,
};

/** Applies one upload event (pure): the state after it. */
export function evolveUpload(state: UploadState, event: UploadEvent): UploadState {
  const at = event.data.at;
  const next = { ...state, last_event_at: at };
  switch (event.type) {
    case 'UploadReceived': {
      const { upload_id, ukprn, kind, api_version, byte_count, sha256 } = event.data;
      return {
        ...next,
        exists: true,
        upload_id,
        ukprn,
        kind,
        api_version,
        byte_count,
        file_sha256: sha256,
        status: 'pending',
        received_at: at,
      };
    }
    case 'UploadChecked': {
      const { rows, error_count, messages_sha256 } = event.data;
      // Older logs hold the messages in the event; a list erased with its key reads as none.
      const inline = Array.isArray(event.data.errors) ? [...event.data.errors] : [];
      const errors = messages_sha256 === null ? inline : null;
      const status = error_count === 0 ? 'validated' : 'failed';
      return { ...next, rows: [...rows], error_count, errors, messages_sha256, status, checked_at: at };
    }
    case 'UploadSubmitted':
      return {
        ...next,
        submission: [...event.data.rows],
        submitted_by: event.data.submitted_by ?? null,
        status: 'in_progress',
        submitted_at: at,
      };
    case 'UploadRowAppended': {
      const { row, trainee_id } = event.data;
      return { ...next, outcomes: { ...state.outcomes, [row]: { row, trainee_id } } };
    }
    case 'UploadRowFailed': {
      const { row, errors } = event.data;
      return { ...next, outcomes: { ...state.outcomes, [row]: { row, errors: [...errors] } } };
    }
    case 'UploadCompleted':
      return { ...next, status: 'succeeded', ended_at: at };
    case 'UploadCancelled':
      return { ...next, status: 'cancelled', ended_at: at };
    case 'UploadPurgeRequested':
      return { ...next, purge_requested: true };
    case 'UploadPurged':
      // The messages may quote the file's values: nothing of them stays once the key is gone.
      return { ...next, purged: true, errors: [], messages_sha256: null, outcomes: withoutMessages(state.outcomes) };
  }
}

/** The outcomes with the failed rows' messages dropped. */
function withoutMessages(outcomes: Readonly<Record<number, RowOutcome>>): Record<number, RowOutcome> {
  return Object.fromEntries(Object.entries(outcomes).map(([row, o]) => [row, 'errors' in o ? { row: o.row, errors: [] } : o]));
}

/** The outcomes in row order. */
export function outcomesOf(state: UploadState): RowOutcome[] {
  return state.submission.flatMap((t) => (state.outcomes[t.row] ? [state.outcomes[t.row]] : []));
}
