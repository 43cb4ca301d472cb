import { queryWithoutValues } from './tracing';

describe("a server span's query", () => {
  it('keeps the names and drops every value', () => {
    expect(queryWithoutValues('/uploads/trainees?search=Ada+Quill&status=deferred&status=withdrawn&cycle=2025')).toEqual({
      'url.query': 'search=REDACTED&status=REDACTED&status=REDACTED&cycle=REDACTED',
    });
    expect(queryWithoutValues('/uploads/sign-in/callback?code=secret&state=x')).toEqual({ 'url.query': 'code=REDACTED&state=REDACTED' });
  });

  it('adds nothing for a request without a query', () => {
    expect([queryWithoutValues('/api/v2026.1/trainees'), queryWithoutValues(undefined)]).toEqual([{}, {}]);
    expect(queryWithoutValues('/uploads/trainees?')).toEqual({ 'url.query': '' });
  });
});
