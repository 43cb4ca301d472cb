/**
 * An upload's stream read and written: its events folded to its state, and a command decided and
 * appended with the revision read (`runCommand`, as a trainee's commands are). The file and the
 * messages about its rows are sealed with the upload's own data key (upload.ports.ts,
 * `UploadKeys`; docs/DESIGN.md "Personal data"): the places below hold `[sealed]` in the log and
 * `[erased]` once the key is destroyed.
 */
import { newEventId, runCommand, streamHeadOf, type RecordedEvent, type StreamSnapshot, type WriteContext } from '@app/event-sourcing';
import { openFields, sealFields } from '@app/personal-data';
import {
  decideUpload,
  decodeUploadEvent,
  evolveUpload,
  initialUploadState,
  uploadStreamId,
  type UploadCommand,
  type UploadEvent,
  type UploadState,
} from '@app/uploads/decider';
import { toEventData } from '@app/event-sourcing';
import type { UploadStreamPorts } from './upload.ports';

/** Where each upload event keeps values that may be personal: the file, its name, the messages quoting its cells. */
const SEALED_PLACES: Readonly<Record<string, readonly string[]>> = {
  UploadReceived: ['file', 'file_name'],
  UploadChecked: ['errors'],
  UploadRowFailed: ['errors'],
};

/** The id of an upload's data key in the key store. */
export function uploadKeyId(uploadId: string): string {
  return `upload-${uploadId}`;
}

/** An upload's state and its file as opened (null once purged, or before it was received). */
export interface ReadUpload {
  state: UploadState;
  file: string | null;
}

/** The upload event of a stored one, opened with `key`; a sealed list destroyed with its key reads as empty. */
function openedEvent(recorded: RecordedEvent, key: Buffer | 'erased' | null, streamId: string): UploadEvent | null {
  const data = recorded.data as Record<string, unknown> | null;
  const opened =
    key !== null && data && typeof data === 'object' && 'sealed' in data
      ? openFields(data, key, { streamId, eventId: recorded.id, type: recorded.type })
      : data;
  if (opened && 'errors' in opened && !Array.isArray(opened.errors))
    return decodeUploadEvent({ type: recorded.type, data: { ...opened, errors: [] } });
  return decodeUploadEvent({ type: recorded.type, data: opened });
}

/** The data key an upload's events open with: null when the service seals nothing. */
async function openingKey(ports: UploadStreamPorts, uploadId: string): Promise<Buffer | 'erased' | null> {
  if (!ports.keys) return null;
  return (await ports.keys.existingKey(uploadKeyId(uploadId))) ?? 'erased';
}

/** How many uploads' states {@link UploadStates} keeps: the uploads being worked on and watched. */
export const UPLOAD_STATES_KEPT = 64;

/**
 * The states of the uploads read lately in this process, each with the stream head it was folded
 * to, the least recently read dropped past {@link UPLOAD_STATES_KEPT}: a later read of the upload
 * (a status poll, the next batch of a submit) reads and folds only the events after that head,
 * never again the file's event. Holds no file; the messages of a state are dropped by its
 * `UploadPurged` as a fresh read's are.
 */
export class UploadStates {
  private readonly kept = new Map<string, StreamSnapshot<UploadState>>();

  /** The state kept for `uploadId` (made the most recently read), or null. */
  get(uploadId: string): StreamSnapshot<UploadState> | null {
    const snapshot = this.kept.get(uploadId);
    if (snapshot === undefined) return null;
    this.kept.delete(uploadId);
    this.kept.set(uploadId, snapshot);
    return snapshot;
  }

  /** Keeps `snapshot` as `uploadId`'s, dropping the least recently read past the bound. */
  set(uploadId: string, snapshot: StreamSnapshot<UploadState>): void {
    this.kept.delete(uploadId);
    this.kept.set(uploadId, snapshot);
    if (this.kept.size > UPLOAD_STATES_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }
}

/**
 * The upload's state, read from its stream (state `exists: false` for an unknown id): from the
 * state `ports.states` kept, when it keeps one, folding only the events after it.
 */
export async function readUpload(ports: UploadStreamPorts, uploadId: string): Promise<{ state: UploadState }> {
  const streamId = uploadStreamId(uploadId);
  const kept = ports.states?.get(uploadId) ?? null;
  const recorded = await ports.trainees.eventStore.readStream(streamId, kept ? { fromRevision: kept.head.revision + 1 } : undefined);
  if (recorded.length === 0) return { state: kept?.state ?? initialUploadState };
  const key = await openingKey(ports, uploadId);
  let state = kept?.state ?? initialUploadState;
  for (const r of recorded) {
    const event = openedEvent(r, key, streamId);
    if (event !== null) state = evolveUpload(state, event);
  }
  ports.states?.set(uploadId, { state, head: streamHeadOf(recorded[recorded.length - 1]) });
  return { state };
}

/** The upload's state and file, read from its whole stream (file null once purged, or before it was received). */
export async function readUploadWithFile(ports: UploadStreamPorts, uploadId: string): Promise<ReadUpload> {
  const streamId = uploadStreamId(uploadId);
  const recorded = await ports.trainees.eventStore.readStream(streamId);
  if (recorded.length === 0) return { state: initialUploadState, file: null };
  const key = await openingKey(ports, uploadId);
  let state = initialUploadState;
  let file: string | null = null;
  for (const r of recorded) {
    const event = openedEvent(r, key, streamId);
    if (event === null) continue;
    if (event.type === 'UploadReceived') file = event.data.file;
    state = evolveUpload(state, event);
  }
  ports.states?.set(uploadId, { state, head: streamHeadOf(recorded[recorded.length - 1]) });
  return { state, file: state.purged || key === 'erased' ? null : file };
}

/**
 * Decides `command` on the upload's stream and appends what it decides (optimistic concurrency,
 * retried on a conflict), its personal values sealed. Returns the state after it. Errors: the
 * upload decider's (upload.errors.ts), `DataKeyDestroyed` for a purged upload's key. `receiving`:
 * the command is the upload's first, `ReceiveUpload`, whose data key is made now.
 */
export async function runUploadCommand(
  ports: UploadStreamPorts,
  uploadId: string,
  ctx: WriteContext,
  command: (state: UploadState) => UploadCommand,
  receiving = false,
): Promise<UploadState> {
  const streamId = uploadStreamId(uploadId);
  // A new upload's key is made with its first event; any other command opens with the stored one.
  const key = receiving && ports.keys ? await ports.keys.keyFor(uploadKeyId(uploadId)) : await openingKey(ports, uploadId);
  const outcome = await runCommand<UploadState, UploadEvent>(ports.trainees.eventStore, streamId, {
    initialState: initialUploadState,
    snapshot: receiving ? null : (ports.states?.get(uploadId) ?? null),
    evolve: evolveUpload,
    decode: (r) => openedEvent(r, key, streamId),
    decide: (state) => decideUpload(command(state), state),
    // Sealed once each event has its id: a box is bound to its event (docs/DESIGN.md "Personal data").
    encode: (events) =>
      toEventData(events, ctx, newEventId).map((e) => {
        const places = SEALED_PLACES[e.type];
        if (!places || !(key instanceof Buffer)) return e;
        const binding = { streamId, eventId: e.id, type: e.type };
        return { ...e, data: sealFields(e.data as Record<string, unknown>, places, key, binding) };
      }),
  });
  return outcome.state;
}
