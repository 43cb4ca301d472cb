/**
 * `admin webhook seal-secrets` (docs/operations.md "Rotating the service key"): an endpoint secret
 * stored in plain text, from before sealing, which the dispatcher refuses, is sealed under the
 * current version and bound to its endpoint; a second run finds nothing to seal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, toEventData } from '@app/event-sourcing';
import { loadServiceKey, sealedSecretsOf } from '@app/runtime/process';
import { openSqliteEventStore } from '@app/stores/sqlite';
import { SecretNotOpened, SecretNotSealed } from '@app/webhooks/write';
import { AdminWorker } from '../support/admin-cli';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** The admin CLI loaded once in a process of its own; the first `webhook seal-secrets` starts the program. */
const admin = AdminWorker.forFile();

describe('admin webhook seal-secrets', () => {
  let dataDir: string;
  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'seal-secrets-'))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seals a secret stored in plain text for its endpoint, once', async () => {
    expect((await admin.run(['provider', 'add', '--ukprn', '10000042', '--name', 'Plain SCITT'], dataDir)).code).toBe(0);
    const endpointId = 'wh_00000000000000000000plain';
    const data = {
      endpoint_id: endpointId,
      ukprn: '10000042',
      url: 'http://127.0.0.1:9/hooks',
      event_types: [],
      api_version: 'v2026.1',
      secret: SECRET,
      at: '2025-01-01T00:00:00.000Z',
    };
    const log = openSqliteEventStore(dataDir);
    try {
      await log.appendToStream(
        `webhook-${endpointId}`,
        toEventData([{ type: 'WebhookEndpointAdded', data }], { occurredAt: data.at }, newEventId),
      );
    } finally {
      await log.close();
    }
    const secrets = sealedSecretsOf(loadServiceKey({ dataDir, dataKeyFile: null }).keyring);
    expect(() => secrets.open(SECRET, endpointId)).toThrow(SecretNotSealed);

    const sealed = await admin.run(['webhook', 'seal-secrets'], dataDir);
    expect(sealed).toMatchObject({ code: 0, stderr: '', stdout: 'Webhook secrets: 1 sealed (1 were in plain text), 0 sealed already.\n' });
    const again = await admin.run(['webhook', 'seal-secrets'], dataDir);
    expect(again.stdout).toBe('Webhook secrets: 0 sealed (0 were in plain text), 1 sealed already.\n');

    const reread = openSqliteEventStore(dataDir);
    try {
      const events = await reread.readStream(`webhook-${endpointId}`);
      expect(events.map((e) => e.type)).toEqual(['WebhookEndpointAdded', 'WebhookSecretResealed']);
      const stored = (events[1].data as { secret: string }).secret;
      expect(stored).toMatch(/^sealed2\.1\./);
      expect(secrets.open(stored, endpointId)).toBe(SECRET);
      expect(() => secrets.open(stored, 'wh_00000000000000000000other')).toThrow(SecretNotOpened);
    } finally {
      await reread.close();
    }
  });
});
