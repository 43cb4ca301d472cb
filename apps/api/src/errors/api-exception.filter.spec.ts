/**
 * The exception filter's answer when the read models are damaged (docs/operations.md "Health"):
 * 503 in the contract's error shape, with `Retry-After`, never a 500 with the store's words; and
 * when the event store refuses an append as too large: 413, naming no limit of the store; when a
 * database cannot answer now: 503 with `Retry-After`, naming no server; when a stream was deleted in the
 * event store: 404.
 */
import type { StorageFaults } from '../composition/storage-faults';
import type { ArgumentsHost } from '@nestjs/common';
import type { Logger } from 'pino';
import { MongoNetworkError } from 'mongodb';
import { isMongoUnavailable } from '@app/stores/mongodb';
import { bulkWriteConcernTimeout } from '@app/stores/mongodb/testing/driver-faults';
import { AppendTooLargeError, EventStoreUnavailableError, StreamDeletedError } from '@app/event-sourcing';
import { ReadModelsDamaged } from '@app/runtime/projector';
import type { ApiAuthenticator } from '../auth/api.guard';
import { ApiExceptionFilter } from './api-exception.filter';

/** A reply that records what the filter sends; `sent` resolves with it. */
function recordingReply() {
  const answer = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  let done: (value: typeof answer) => void = () => undefined;
  const sent = new Promise<typeof answer>((resolve) => (done = resolve));
  const reply = {
    sent: false,
    status(code: number) {
      answer.status = code;
      return reply;
    },
    header(name: string, value: string) {
      answer.headers[name.toLowerCase()] = value;
      return reply;
    },
    send(body: unknown) {
      answer.body = body;
      done(answer);
      return Promise.resolve(reply);
    },
  };
  return { reply, sent };
}

/** What the filter answers to `exception` on a trainee's path, and what it logged at error. */
async function answerTo(exception: unknown, storeUnavailable?: (error: unknown) => boolean) {
  const errors: unknown[] = [];
  const logger = { error: (context: unknown) => errors.push(context) } as unknown as Logger;
  const noStorageFault = { noted: () => false } as unknown as StorageFaults;
  const filter = new ApiExceptionFilter({} as ApiAuthenticator, logger, noStorageFault, storeUnavailable);
  const { reply, sent } = recordingReply();
  const host = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ id: 'r1', url: '/api/v2026.1/trainees/T1' }) }),
  } as unknown as ArgumentsHost;
  filter.catch(exception, host);
  return { answer: await sent, errors };
}

describe('ApiExceptionFilter: damaged read models', () => {
  it('answers 503 ServiceUnavailable with Retry-After, logging the damage at error', async () => {
    const { answer, errors } = await answerTo(new ReadModelsDamaged('database disk image is malformed'));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('30');
    expect(answer.body).toEqual({
      errors: [{ error: 'ServiceUnavailable', message: 'The service cannot read its records at the moment; please try again shortly' }],
    });
    expect(errors).toHaveLength(1);
  });
});

describe('ApiExceptionFilter: an append over the event store limit', () => {
  it('answers 413 PayloadTooLarge in the contract shape, without the stream or the limit', async () => {
    const { answer } = await answerTo(new AppendTooLargeError('trainee-T1', 1_048_576));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      errors: [
        { error: 'PayloadTooLarge', message: 'The change is larger than the event store takes in one write; send it in smaller parts' },
      ],
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/trainee-T1|1048576/);
  });
});

describe('ApiExceptionFilter: a database that cannot answer now', () => {
  it('answers a lost MongoDB connection 503 ServiceUnavailable with Retry-After 5, naming no server', async () => {
    const { answer } = await answerTo(new MongoNetworkError('connection 3 to 10.0.0.2:27017 closed'), isMongoUnavailable);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.body).toEqual({
      errors: [{ error: 'ServiceUnavailable', message: 'The service cannot reach its records at the moment; please try again shortly' }],
    });
  });

  it('answers a bulk write whose majority write concern timed out 503 with Retry-After 5, never 500', async () => {
    const { answer } = await answerTo(bulkWriteConcernTimeout(['R1', 'R2']), isMongoUnavailable);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(JSON.stringify(answer.body)).not.toMatch(/replication|WriteConcern/);
  });

  it('answers EventStoreDB unavailable 503 with Retry-After 1', async () => {
    const { answer } = await answerTo(new EventStoreUnavailableError('EventStoreDB could not answer an append (UnavailableError)'));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.stringify(answer.body)).not.toMatch(/UnavailableError/);
  });
});

describe('ApiExceptionFilter: a stream deleted in the event store', () => {
  it('answers 404 NotFound in the contract shape, without the stream, logging nothing at error', async () => {
    const { answer, errors } = await answerTo(new StreamDeletedError('trainee-T1'));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ errors: [{ error: 'NotFound', message: 'The record was deleted from the event store' }] });
    expect(JSON.stringify(answer.body)).not.toMatch(/trainee-T1/);
    expect(errors).toEqual([]);
  });
});
