/**
 * Jest global setup: says, before any test runs, which adapter contract suites run against a real
 * server and which are skipped because no server is named (EVENTSTORE_URL, MONGODB_URL), and
 * whether the production stack e2e runs (it needs both).
 */
module.exports = async function announceBackends() {
  const lines = [
    process.env.EVENTSTORE_URL
      ? `EventStoreDB contract suite: RUNNING against EVENTSTORE_URL`
      : 'EventStoreDB contract suite: SKIPPED (EVENTSTORE_URL is not set; no server on this machine)',
    process.env.MONGODB_URL
      ? `MongoDB suites (read model, change feed, list status rule, idempotency store, page session store, data key store, digest tree store, schools directory, rate-limit counter, webhook outbox): RUNNING against MONGODB_URL`
      : 'MongoDB suites (read model, change feed, list status rule, idempotency store, page session store, data key store, digest tree store, schools directory, rate-limit counter, webhook outbox): SKIPPED (MONGODB_URL is not set; no server on this machine)',
    process.env.EVENTSTORE_URL && process.env.MONGODB_URL
      ? 'Production stack e2e (API and projector processes on EventStoreDB and MongoDB): RUNNING'
      : 'Production stack e2e (API and projector processes on EventStoreDB and MongoDB): SKIPPED (needs EVENTSTORE_URL and MONGODB_URL; npm run test:production starts both with Docker)',
    'SQLite event-store and read-model contract suites: RUNNING',
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
};
