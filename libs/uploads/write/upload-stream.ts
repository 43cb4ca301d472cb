/**
 * An upload's stream folded and written through `runCommand`. The file's name and a failed row's messages are sealed in the events with
 * the upload's data key; the file and the check's messages are its parts outside the log (docs/DESIGN.md "Uploads"). Folding opens no part.
 */
import { newEventId, runCommand, streamHeadOf, type RecordedEvent, type WriteContext } from '@app/event-sourcing';
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
import type { RowError } from '@app/uploads/decider';
import { FILE_PART, messagesPart } from './upload-files.port';
import { openPart, sealPart, sha256Hex } from './upload-parts';
import type { UploadStreamPorts } from './upload.ports';

/** The file's name, and the messages quoting a row's cells. */
const SEALED_PLACES: Readonly<Record<string, readonly string[]>> = {
  UploadReceived: ['file_name'],
  UploadRowFailed: ['errors'],
};

/** The others stay sealed when folding. */
const OPENED_FOR_STATE = new Set(['UploadChecked', 'UploadRowFailed']);

/** In the key store. */
export function uploadKeyId(uploadId: string): string {
  return `upload-${uploadId}`;
}

/** `open` false: left sealed; a sealed list destroyed with its key reads as empty. */
function openedEvent(recorded: RecordedEvent, key: Buffer | 'erased' | null, streamId: string, open = true): UploadEvent | null {
  const data = recorded.data as Record<string, unknown> | null;
  const opened =
    open && key !== null && data && typeof data === 'object' && 'sealed' in data
      ? openFields(data, key, { streamId, eventId: recorded.id, type: recorded.type })
      : data;
  const { type, metadata } = recorded;
  if (opened && 'errors' in opened && !Array.isArray(opened.errors))
    return decodeUploadEvent({ type, metadata, data: { ...opened, errors: [] } });
  return decodeUploadEvent({ type, metadata, data: opened });
}

function eventForState(recorded: RecordedEvent, key: Buffer | 'erased' | null, streamId: string): UploadEvent | null {
  return openedEvent(recorded, key, streamId, OPENED_FOR_STATE.has(recorded.type));
}

/** Null when the service seals nothing. */
async function openingKey(ports: UploadStreamPorts, uploadId: string): Promise<Buffer | 'erased' | null> {
  if (!ports.keys) return null;
  return (await ports.keys.existingKey(uploadKeyId(uploadId))) ?? 'erased';
}

/** `exists: false` for an unknown id; folds only what came after a state `ports.states` kept. */
export async function readUpload(ports: UploadStreamPorts, uploadId: string): Promise<{ state: UploadState }> {
  const streamId = uploadStreamId(uploadId);
  const kept = ports.states?.get(uploadId) ?? null;
  const recorded = await ports.trainees.eventStore.readStream(streamId, kept ? { fromRevision: kept.head.revision + 1 } : undefined);
  if (recorded.length === 0) return { state: kept?.state ?? initialUploadState };
  const key = recorded.some((r) => OPENED_FOR_STATE.has(r.type)) ? await openingKey(ports, uploadId) : null;
  let state = kept?.state ?? initialUploadState;
  for (const r of recorded) {
    const event = eventForState(r, key, streamId);
    if (event !== null) state = evolveUpload(state, event);
  }
  ports.states?.set(uploadId, { state, head: streamHeadOf(recorded[recorded.length - 1]) });
  return { state };
}

/** Missing from the upload store, or not matching its event's digest. */
export class UploadPartUnreadable extends Error {
  constructor(uploadId: string, part: string, why: 'missing' | 'altered') {
    super(
      `the ${part === FILE_PART ? 'file' : 'messages'} of upload ${uploadId} ${why === 'missing' ? 'is not in the upload store' : 'does not match its digest'}`,
    );
    this.name = 'UploadPartUnreadable';
  }
}

/** Throws {@link UploadPartUnreadable}. */
async function openedPart(ports: UploadStreamPorts, uploadId: string, part: string, key: Buffer | null, sha256: string): Promise<Buffer> {
  const sealed = await ports.files.get(uploadId, part);
  if (sealed === null) throw new UploadPartUnreadable(uploadId, part, 'missing');
  const bytes = openPart(sealed, key, uploadId, part);
  if (sha256Hex(bytes) !== sha256) throw new UploadPartUnreadable(uploadId, part, 'altered');
  return bytes;
}

/** As sent; null once purged. From the upload store, or an older log's event. Throws {@link UploadPartUnreadable}. */
export async function readUploadFile(ports: UploadStreamPorts, uploadId: string, state: UploadState): Promise<Uint8Array | null> {
  if (!state.exists || state.purged) return null;
  const key = await openingKey(ports, uploadId);
  if (key === 'erased') return null;
  if (state.file_sha256 !== null) return openedPart(ports, uploadId, FILE_PART, key, state.file_sha256);
  const streamId = uploadStreamId(uploadId);
  const [first] = await ports.trainees.eventStore.readStream(streamId, { maxCount: 1 });
  const event = first ? openedEvent(first, key, streamId) : null;
  const file = event?.type === 'UploadReceived' ? event.data.file : undefined;
  return typeof file === 'string' ? new TextEncoder().encode(file) : null;
}

/** In row order; [] before the check or once purged. From the upload store, or an older log's state. {@link UploadPartUnreadable}. */
export async function readUploadMessages(ports: UploadStreamPorts, uploadId: string, state: UploadState): Promise<RowError[]> {
  if (state.errors !== null) return [...state.errors];
  if (state.purged || state.messages_sha256 === null) return [];
  const key = await openingKey(ports, uploadId);
  if (key === 'erased') return [];
  const bytes = await openedPart(ports, uploadId, messagesPart(state.messages_sha256), key, state.messages_sha256);
  return JSON.parse(bytes.toString('utf8')) as RowError[];
}

/** Made with the upload (`receiving`), else the stored one; null when the service seals nothing. */
async function partKey(ports: UploadStreamPorts, uploadId: string, receiving: boolean): Promise<Buffer | null> {
  if (!ports.keys) return null;
  const key = receiving ? await ports.keys.keyFor(uploadKeyId(uploadId)) : await openingKey(ports, uploadId);
  if (!(key instanceof Buffer)) throw new Error(`upload ${uploadId} has no data key to seal its parts with`);
  return key;
}

/** Sealed with the upload's data key, made now (the file comes before the first event); returns its SHA-256 hex. */
export async function storeUploadFile(ports: UploadStreamPorts, uploadId: string, bytes: Uint8Array): Promise<string> {
  const key = await partKey(ports, uploadId, true);
  await ports.files.put(uploadId, FILE_PART, sealPart(bytes, key, uploadId, FILE_PART));
  return sha256Hex(bytes);
}

/** In row order, sealed; returns their SHA-256 hex, or null for none (nothing stored). */
export async function storeUploadMessages(ports: UploadStreamPorts, uploadId: string, errors: readonly RowError[]): Promise<string | null> {
  if (errors.length === 0) return null;
  const bytes = Buffer.from(JSON.stringify(errors), 'utf8');
  const sha256 = sha256Hex(bytes);
  const part = messagesPart(sha256);
  await ports.files.put(uploadId, part, sealPart(bytes, await partKey(ports, uploadId, false), uploadId, part));
  return sha256;
}

/**
 * Decides and appends with optimistic concurrency, personal values sealed; the state after. Throws the upload decider's errors,
 * `DataKeyDestroyed` for a purged upload. `receiving`: the first command, whose data key is made now.
 */
export async function runUploadCommand(
  ports: UploadStreamPorts,
  uploadId: string,
  ctx: WriteContext,
  command: (state: UploadState) => UploadCommand,
  receiving = false,
): Promise<UploadState> {
  const streamId = uploadStreamId(uploadId);
  const key = receiving && ports.keys ? await ports.keys.keyFor(uploadKeyId(uploadId)) : await openingKey(ports, uploadId);
  const outcome = await runCommand<UploadState, UploadEvent>(ports.trainees.eventStore, streamId, {
    initialState: initialUploadState,
    snapshot: receiving ? null : (ports.states?.get(uploadId) ?? null),
    evolve: evolveUpload,
    decode: (r) => eventForState(r, key, streamId),
    decide: (state) => decideUpload(command(state), state),
    // Sealed once each event has its id: a box is bound to its event.
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
