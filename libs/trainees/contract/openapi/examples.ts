/**
 * Each version's request examples: the reference's own (docs/reference/openapi/*.yaml, copied into request-examples.json), changed
 * where this contract's rules need it ({@link ADJUSTMENTS}).
 */
import examples from './request-examples.json';
import type { ApiVersion } from '@app/trainees/record';

type Example = { data: Record<string, unknown> };

/** Where the reference's example breaks a rule of this contract, and how it is changed. */
export const ADJUSTMENTS: readonly { version: ApiVersion; operation: string; why: string; change: (e: Example) => Example }[] = [
  {
    version: 'v2026.1',
    operation: 'POST /api/{api_version}/trainees',
    why: 'iqts_country is refused on a route other than iQTS (docs/reference/API-FACTS.md §6.3); the example is route 11',
    change: ({ data: { iqts_country: _dropped, ...data } }) => ({ data }),
  },
  {
    version: 'v2026.1',
    operation: 'PUT /api/{api_version}/trainees/{trainee_id}',
    why: 'iqts_country is refused on a route other than iQTS (docs/reference/API-FACTS.md §6.3); the example is route 12',
    change: ({ data: { iqts_country: _dropped, ...data } }) => ({ data }),
  },
  {
    version: 'v2025.0',
    operation: 'POST /api/{api_version}/trainees/{trainee_id}/withdraw',
    why: 'safeguarding_concerns is a withdrawal reason in v2026.1 only (docs/DESIGN.md ruling 7)',
    change: ({ data: { safeguarding_concern_reasons: _dropped, ...data } }) => ({
      data: { ...data, reasons: ['had_to_withdraw_trainee_another_reason'] },
    }),
  },
];

/** The request example of `METHOD /api/{api_version}/…` in `version` (PATCH has PUT's), or undefined. */
export function requestExample(version: ApiVersion, operation: string): Example | undefined {
  const byOperation = (examples as Record<string, Record<string, Example>>)[version] ?? {};
  const key = operation.startsWith('PATCH ') ? `PUT ${operation.slice('PATCH '.length)}` : operation;
  const example = byOperation[key];
  if (!example) return undefined;
  const adjustment = ADJUSTMENTS.find((a) => a.version === version && a.operation === key);
  return adjustment ? adjustment.change(structuredClone(example)) : structuredClone(example);
}

/** Every operation (`METHOD path`) with a request example in `version`. */
export function operationsWithExamples(version: ApiVersion): string[] {
  return Object.keys((examples as Record<string, Record<string, Example>>)[version] ?? {});
}
