/**
 * The stores as the API opens them on the embedded default (`openStores` with a projection thread
 * and personal data, whose new keys are stored from the key writer thread; docs/DESIGN.md
 * "Personal data"): a trainee written before sealing gets its key on its first write, which is
 * sealed, and a new trainee's key is stored before its id is handed out.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { newEventId, toEventData } from '@app/event-sourcing';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, traineeUpdated, TRAINEE_ID } from '@app/trainees/decider/testing/trainee-events';
import { openStores } from './open-stores';
import { SqliteDataKeyStore } from '@app/stores/sqlite';

const AT = '2026-01-01T00:00:00.000Z';
const QUIET = { error: () => undefined, warn: () => undefined };

describe('openStores on the embedded default, sealing personal data with the API threads', () => {
  it('gives a trainee written before sealing its key on its first write and seals that write; a new id comes with its key stored', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'open-stores-'));
    const stores = await openStores(
      { dataDir, eventStoreUrl: null, mongodbUrl: null },
      { projectionThread: { logger: QUIET }, personalData: { kek: randomBytes(32) } },
    );
    const keys = SqliteDataKeyStore.open(dataDir);
    try {
      const stream = traineeStreamId(TRAINEE_ID);
      // Written before sealing (through the thread's own store, beneath the sealing): in the clear, and no key stored for it.
      await stores.projectionThread!.eventStore.appendToStream(stream, toEventData(exampleRegistration(), { occurredAt: AT }, newEventId));
      expect(await keys.get(TRAINEE_ID)).toBeNull();
      const update = [traineeUpdated({ changes: { last_name: 'Quennell' } })];
      await stores.eventStore.appendToStream(stream, toEventData(update, { occurredAt: AT }, newEventId), { expectedRevision: 3 });
      expect(await keys.get(TRAINEE_ID)).toBeInstanceOf(Buffer);
      const stored = await stores.storedLog.readStream(stream);
      expect(JSON.stringify(stored[4].data)).not.toContain('Quennell');
      expect((await stores.eventStore.readStream(stream))[4].data).toMatchObject({ changes: { last_name: 'Quennell' } });
      // A new trainee's id comes from a pool the thread stored beforehand.
      const id = await stores.personalData!.keys.newTraineeId();
      expect(await keys.get(id)).toBeInstanceOf(Buffer);
    } finally {
      await keys.close();
      await stores.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
