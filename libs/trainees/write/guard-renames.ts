import { createHash } from 'node:crypto';
import { duplicateGuardKey, REGISTRATION_GUARD_STREAM_PREFIX, TRAINEE_STREAM_PREFIX } from '@app/trainees/decider';

/** What {@link plainGuardRenames} reads of an export line: its stream, type, revision and data. */
interface Line {
  stream_id?: unknown;
  type?: unknown;
  revision?: unknown;
  data?: unknown;
}

/**
 * The duplicate guard streams of an export made before they were named by a keyed hash
 * (docs/DESIGN.md property 3; docs/operations.md "Moving a log written before sealing"), each
 * with the name `guardStreamOf` gives it now: `registrationguard-` and a plain SHA-256 of the
 * provider, date of birth, route and last name, which a dictionary reverses, becomes the keyed
 * name. Found from the export's lines (JSON text, in any order): a guard stream's first claim names
 * its trainee, whose registration in the clear gives the guard key; a guard stream whose name is
 * the plain hash of that key is renamed. Keyed names, sealed registrations and lines that are not
 * events are left as they are.
 */
export async function plainGuardRenames(
  lines: AsyncIterable<string>,
  guardStreamOf: (guardKey: string) => string,
): Promise<Map<string, string>> {
  const claimedBy = new Map<string, string>();
  const guardKeyOf = new Map<string, string>();
  for await (const text of lines) {
    if (!text.includes('"RegistrationClaimed"') && !text.includes('"TraineeRegistered"')) continue;
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      continue;
    }
    const stream = typeof line.stream_id === 'string' ? line.stream_id : '';
    const data = (line.data ?? {}) as { trainee_id?: unknown; ukprn?: unknown; details?: Record<string, unknown> };
    if (line.type === 'RegistrationClaimed' && line.revision === 0 && stream.startsWith(REGISTRATION_GUARD_STREAM_PREFIX)) {
      if (typeof data.trainee_id === 'string') claimedBy.set(stream, data.trainee_id);
    } else if (line.type === 'TraineeRegistered' && stream.startsWith(TRAINEE_STREAM_PREFIX) && typeof data.ukprn === 'string') {
      const d = data.details ?? {};
      if (typeof d.date_of_birth === 'string' && typeof d.training_route === 'string' && typeof d.last_name === 'string') {
        const key = duplicateGuardKey(data.ukprn, {
          date_of_birth: d.date_of_birth,
          training_route: d.training_route,
          last_name: d.last_name,
        });
        guardKeyOf.set(stream.slice(TRAINEE_STREAM_PREFIX.length), key);
      }
    }
  }
  const renames = new Map<string, string>();
  for (const [stream, traineeId] of claimedBy) {
    const key = guardKeyOf.get(traineeId);
    if (key === undefined) continue;
    const plain = REGISTRATION_GUARD_STREAM_PREFIX + createHash('sha256').update(key).digest('hex').slice(0, 40);
    if (stream === plain) renames.set(stream, guardStreamOf(key));
  }
  return renames;
}
