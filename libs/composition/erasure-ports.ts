import type { ErasurePorts } from '@app/personal-data/erasure';
import { purgeUploadsOfErased, UploadLists, UploadRowMarks } from '@app/uploads/write';
import type { Stores } from './stores';

/**
 * The ports of an erasure on `stores` (docs/DESIGN.md "Personal data"); the idempotency keys, outbox and upload store each opened for one
 * call; each provider's list and file's rows read once across the ports' erasures (`retention apply`). Throws without personal data keys.
 */
export function erasurePortsOf(stores: Stores, recordErasure?: ErasurePorts['recordErasure']): ErasurePorts {
  const personal = stores.personalData;
  if (!personal) throw new Error('the stores were opened without personal data keys');
  const lists = new UploadLists();
  const rows = new UploadRowMarks();
  return {
    eventStore: stores.eventStore,
    resolveId: async (id) => (await stores.readModel.getTrainee(id))?.trainee_id ?? null,
    destroyKey: (id, at) => personal.keys.destroy(id, at),
    forgetProjected: (id, ukprn, stream) => stores.readModel.eraseTrainee(id, ukprn, stream),
    forgetAnswers: async (text) => {
      const idempotency = stores.idempotencyStore();
      try {
        return await idempotency.forget(text);
      } finally {
        await idempotency.close();
      }
    },
    forgetDeliveries: async (id) => {
      const outbox = await stores.webhookOutbox();
      try {
        return await outbox.forgetTrainee(id);
      } finally {
        await outbox.close();
      }
    },
    forgetUploads: async (id, ukprn, marks) => {
      const files = await stores.uploadFiles();
      try {
        const ports = { trainees: { eventStore: stores.eventStore }, keys: personal.keys, files, lists };
        return await purgeUploadsOfErased(ports, ukprn, { traineeId: id, marks }, new Date(), rows);
      } finally {
        await files.close();
      }
    },
    recordErasure,
    clock: () => new Date(),
  };
}
