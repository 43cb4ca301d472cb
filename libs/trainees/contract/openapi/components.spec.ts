import {
  API_VERSIONS,
  type ApiVersion,
  DEGREES_ATTRIBUTES_MAX_ITEMS,
  PLACEMENTS_ATTRIBUTES_MAX_ITEMS,
  WITHDRAWAL_REASONS_MAX_ITEMS,
} from '@app/trainees/record';
import { openApiSchemas } from './components';

type Schema = { type?: unknown; maxItems?: number; properties?: Record<string, Schema>; items?: unknown };

/** Every property of the request schemas (`…Input`) whose type includes `array`, as `Schema.property`. */
function requestArrays(version: ApiVersion): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(openApiSchemas(version) as Record<string, Schema>)) {
    if (!name.endsWith('Input')) continue;
    for (const [property, p] of Object.entries(schema.properties ?? {})) {
      const types = Array.isArray(p.type) ? p.type : [p.type];
      if (types.includes('array')) out[`${name}.${property}`] = p;
    }
  }
  return out;
}

describe('the request schemas of the OpenAPI documents (docs/DESIGN.md ruling 14)', () => {
  it.each([...API_VERSIONS])('%s: state the maximum of every array a write body can hold', (version) => {
    const arrays = requestArrays(version);
    expect(Object.fromEntries(Object.entries(arrays).map(([k, s]) => [k, s.maxItems]))).toEqual({
      'TraineeInput.degrees_attributes': DEGREES_ATTRIBUTES_MAX_ITEMS,
      'TraineeInput.placements_attributes': PLACEMENTS_ATTRIBUTES_MAX_ITEMS,
      'WithdrawalInput.reasons': WITHDRAWAL_REASONS_MAX_ITEMS,
    });
  });
});
