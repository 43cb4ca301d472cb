/**
 * Error mapping of the EventStoreDB adapter (errors.ts), with the client's real error classes
 * constructed directly (their constructors accept `undefined` for the gRPC error). No server.
 */
import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  InvalidArgumentError,
  NO_STREAM,
  NotLeaderError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  UnknownError,
  UnsupportedError,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import { WrongExpectedVersionError } from '@app/event-sourcing';
import { isClientWrongExpectedVersion, isStreamNotFound, classifySubscriptionError, toPortWrongExpectedVersion } from './errors';
import { PositionMappingError } from './positions';

function clientWrongExpectedVersion(current: bigint | typeof NO_STREAM): ClientWrongExpectedVersionError {
  return new ClientWrongExpectedVersionError(undefined, { streamName: 'trainee-1', expected: 0n, current });
}

describe('toPortWrongExpectedVersion', () => {
  it("gives the port's error with the server's current revision as a Number", () => {
    const error = toPortWrongExpectedVersion(clientWrongExpectedVersion(2n), 'trainee-1', 0);

    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ name: 'WrongExpectedVersionError', streamId: 'trainee-1', expected: 0, actual: 2 });
  });

  it("reports a missing stream as actual 'no_stream', keeping the caller's expectation", () => {
    const error = toPortWrongExpectedVersion(clientWrongExpectedVersion(NO_STREAM), 'trainee-1', 'stream_exists');
    expect(error).toMatchObject({ expected: 'stream_exists', actual: 'no_stream' });
  });

  it('recognises only the client WrongExpectedVersionError as one', () => {
    expect(isClientWrongExpectedVersion(clientWrongExpectedVersion(1n))).toBe(true);
    expect(isClientWrongExpectedVersion(new WrongExpectedVersionError('s', 0, 1))).toBe(false);
    expect(isClientWrongExpectedVersion(new UnavailableError())).toBe(false);
  });
});

describe('isStreamNotFound', () => {
  it('is true only for the client StreamNotFoundError', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 'trainee-1'))).toBe(true);
    expect(isStreamNotFound(new UnknownError())).toBe(false);
    expect(isStreamNotFound(new Error('trainee-1 not found'))).toBe(false);
  });
});

describe('classifySubscriptionError', () => {
  it.each([
    ['unavailable', new UnavailableError()],
    ['cancelled by the server', new CancelledError()],
    ['deadline exceeded', new DeadlineExceededError()],
    ['a timeout', new TimeoutError()],
    // Its constructor reads the leader from the gRPC error's metadata; an instance without one will do here.
    ['a node that is not the leader', Object.setPrototypeOf(new Error('not leader'), NotLeaderError.prototype) as Error],
    ['a premature close of the stream', Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })],
  ])('takes %s for a dropped connection', (_, error) => {
    expect(classifySubscriptionError(error)).toBe('drop');
  });

  it.each([
    ['the client UnknownError (an invalid position among others)', new UnknownError()],
    ['an error of no known class', new Error('stream reset')],
  ])('calls %s unknown', (_, error) => {
    expect(classifySubscriptionError(error)).toBe('unknown');
  });

  it.each([
    ['access denied', new AccessDeniedError()],
    ['an invalid argument', new InvalidArgumentError('bad filter')],
    ['an unsupported feature', new UnsupportedError('filtered subscriptions', '20.6')],
    ['an unmappable position', new PositionMappingError('commit ≠ prepare')],
    ['a programming error', new TypeError('x is not a function')],
  ])('gives up on %s', (_, error) => {
    expect(classifySubscriptionError(error)).toBe('permanent');
  });
});
