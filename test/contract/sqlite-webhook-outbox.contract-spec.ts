/**
 * Runs the webhook outbox contract (test/contract/webhook-outbox.contract.ts; docs/change-feed.md
 * "Webhooks") against the SQLite adapter on a fresh temporary data directory per test, beside the
 * read models' own tables in the same file; `reopen` opens another connection on the same file (as
 * a restarted process would).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteReadModel, SqliteWebhookOutbox } from '@app/stores/sqlite';
import { describeWebhookOutboxContract } from './webhook-outbox.contract';

describeWebhookOutboxContract('SqliteWebhookOutbox', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-outbox-contract-'));
  const readModel = SqliteReadModel.open(dataDir);
  const opened = [SqliteWebhookOutbox.open(dataDir)];
  return {
    outbox: opened[0],
    reopen: async () => {
      const another = SqliteWebhookOutbox.open(dataDir);
      opened.push(another);
      return another;
    },
    cleanup: async () => {
      for (const o of opened) o.close();
      readModel.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
