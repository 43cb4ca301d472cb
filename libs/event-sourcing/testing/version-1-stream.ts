import type { StoredEventText } from '../event-store.port';

export const VERSION_1_STREAM_ID = 'trainee-T1';

/**
 * Three events literally as a store chained them by version 1 of the rule, so a rule change that stops old chains verifying fails a test.
 * The first event's box is of the format without a version.
 */
export const VERSION_1_STREAM: readonly StoredEventText[] = [
  {
    streamId: VERSION_1_STREAM_ID,
    revision: 0,
    id: '5b0e7c1a-9f0d-4e57-8a43-0d1f3c2b6a01',
    type: 'TraineeRegistered',
    data: '{"trainee_id":"T1","details":{"training_route":"11","last_name":"[sealed]"},"sealed":{"fields":["details.last_name"],"box":"AQEBAQEBAQEBAQEBLcPT0vLaiGewvP4NUmYFWMSXNqlxg+ruWGTEy3Ydd6Qp3aPF"}}',
    metadata:
      '{"schemaVersion":1,"occurredAt":"2026-01-05T10:00:00.000Z","providerUkprn":"10000001","apiVersion":"v2026.1","requestId":"req-1","causationId":"req-1","correlationId":"req-1","tokenId":"tok-1","previousHash":null,"hash":"0d86db71c50a195b729ab6473d63f5c07545e5ac6814abab182144db19df9aa2"}',
  },
  {
    streamId: VERSION_1_STREAM_ID,
    revision: 1,
    id: '5b0e7c1a-9f0d-4e57-8a43-0d1f3c2b6a02',
    type: 'TraineeUpdated',
    data: '{"trainee_id":"T1","changes":{"course_title":"Maths"}}',
    metadata:
      '{"schemaVersion":1,"occurredAt":"2026-01-06T09:30:00.000Z","providerUkprn":"10000001","apiVersion":"v2026.1","requestId":"req-2","causationId":"req-2","correlationId":"req-2","tokenId":"tok-1","previousHash":"0d86db71c50a195b729ab6473d63f5c07545e5ac6814abab182144db19df9aa2","hash":"d058f4a259ccccbc5e28b95ad8e3104626975fb4cfa526c59fa8b412e90e67dc"}',
  },
  {
    streamId: VERSION_1_STREAM_ID,
    revision: 2,
    id: '5b0e7c1a-9f0d-4e57-8a43-0d1f3c2b6a03',
    type: 'TrnIssued',
    data: '{"trainee_id":"T1","trn":"[sealed]"}',
    metadata:
      '{"schemaVersion":1,"occurredAt":"2026-01-07T08:00:00.000Z","providerUkprn":null,"apiVersion":null,"requestId":null,"causationId":null,"correlationId":null,"tokenId":null,"previousHash":"d058f4a259ccccbc5e28b95ad8e3104626975fb4cfa526c59fa8b412e90e67dc","hash":"fa47e50a2302189b5b2350761e8a92102a8e940efb553988d2b0f834c4673781"}',
  },
];

export const VERSION_1_HEAD = 'fa47e50a2302189b5b2350761e8a92102a8e940efb553988d2b0f834c4673781';
