/**
 * An upload's stream read and written: its events folded to its state, and a command decided and
 * appended with the revision read (`runCommand`, as a trainee's commands are). The file and the
 * messages about its rows are sealed with the upload's own data key (upload.ports.ts,
 * `UploadKeys`; docs/DESIGN.md "Personal data"): the places below hold `[sealed]` in the log and
 * `[erased]` once the key is destroyed.
 */
import { newEventId, runCommand, type RecordedEvent, type WriteContext } from '@app/event-sourcing';
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
  const opened = key !== null && data && typeof data === 'object' && 'sealed' in data ? openFields(data, key, streamId) : data;
  if (opened && 'errors' in opened && !Array.isArray(opened.errors))
    return decodeUploadEvent({ type: recorded.type, data: { ...opened, errors: [] } });
  return decodeUploadEvent({ type: recorded.type, data: opened });
}

/** The data key an upload's events open with: null when the service seals nothing. */
async function openingKey(ports: UploadStreamPorts, uploadId: string): Promise<Buffer | 'erased' | null> {
  if (!ports.keys) return null;
  return (await ports.keys.existingKey(uploadKeyId(uploadId))) ?? 'erased';
}

/** The upload's state and file, read from its stream (state `exists: false` for an unknown id). */
export async function readUpload(ports: UploadStreamPorts, uploadId: string): Promise<ReadUpload> {
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
    evolve: evolveUpload,
    decode: (r) => openedEvent(r, key, streamId),
    decide: (state) => decideUpload(command(state), state),
    encode: (events) =>
      toEventData(
        events.map((e) => {
          const places = SEALED_PLACES[e.type];
          if (!places || !(key instanceof Buffer)) return e;
          return { type: e.type, data: sealFields(e.data as unknown as Record<string, unknown>, places, key, streamId) };
        }),
        ctx,
        newEventId,
      ),
  });
  return outcome.state;
}
