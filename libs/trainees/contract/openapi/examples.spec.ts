import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { requestsFor, type VersionRequests } from '../wire/requests';
import { API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import { ADJUSTMENTS, operationsWithExamples, requestExample } from './examples';

/** The request body kind of an operation (`METHOD /api/{api_version}/…`). */
function kindOf(operation: string): keyof VersionRequests {
  const [method, path] = operation.split(' ');
  if (path.endsWith('/trainees')) return 'traineeCreate';
  if (path.endsWith('/trainees/{trainee_id}')) return method === 'POST' ? 'traineeCreate' : 'traineeUpdate';
  if (path.includes('/placements')) return 'placement';
  if (path.includes('/degrees')) return 'degree';
  if (path.endsWith('/defer')) return 'deferral';
  if (path.endsWith('/withdraw')) return 'withdrawal';
  return 'recommendation';
}

describe('the request examples of the OpenAPI documents (docs/reference/openapi)', () => {
  it.each([...API_VERSIONS])('are those of the reference’s %s document, but for the listed adjustments', (version: ApiVersion) => {
    const reference = load(
      readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'reference', 'openapi', `${version}.yaml`), 'utf8'),
    ) as {
      paths: Record<string, Record<string, { requestBody?: { content: { 'application/json': { example?: unknown } } } }>>;
    };
    const expected: string[] = [];
    for (const [path, item] of Object.entries(reference.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const example = op.requestBody?.content['application/json'].example;
        if (example === undefined) continue;
        const operation = `${method.toUpperCase()} ${path}`;
        expected.push(operation);
        const adjusted = ADJUSTMENTS.some((a) => a.version === version && a.operation === operation);
        if (!adjusted) expect(requestExample(version, operation)).toEqual(example);
        else expect(requestExample(version, operation)).not.toEqual(example);
      }
    }
    expect(operationsWithExamples(version).sort()).toEqual(expected.sort());
  });

  it.each([...API_VERSIONS])('pass the wire checks of %s', (version: ApiVersion) => {
    const requests = requestsFor(version);
    for (const operation of operationsWithExamples(version)) {
      const data = requests[kindOf(operation)](requestExample(version, operation)!.data);
      expect([operation, data.kind === 'data' ? data.problems : 'missing']).toEqual([operation, []]);
    }
  });

  it('documents PATCH with the example of PUT', () => {
    expect(requestExample('v2026.1', 'PATCH /api/{api_version}/trainees/{trainee_id}')).toEqual(
      requestExample('v2026.1', 'PUT /api/{api_version}/trainees/{trainee_id}'),
    );
    expect(requestExample('v2026.1', 'GET /api/{api_version}/trainees')).toBeUndefined();
  });
});
