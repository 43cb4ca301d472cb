/**
 * A trainee's answer validates against the version's own Trainee schema (docs/spec/trainee-records-api.md
 * "Trainee object"), whatever disability keys it stores: none (v2025.0 still answers disability1 and
 * disability2, as null), only the listed ones, or more (docs/reference/API-FACTS.md §6.7: every
 * stored key is answered).
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { evolveAll } from '@app/trainees/decider';
import { type Trainee, API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import { EXAMPLE_DETAILS, exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { outputFor } from './trainee.output';
import { openApiSchemas } from '@app/trainees/contract';

function traineeWith(disabilities: Record<string, string>): Trainee {
  const state = evolveAll(exampleRegistration({ details: { ...EXAMPLE_DETAILS, disabilities } }));
  if (!state.exists) throw new Error('the example registers a trainee');
  return state.trainee;
}

function traineeValidator(version: ApiVersion) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile({ $ref: '#/components/schemas/Trainee', components: { schemas: openApiSchemas(version) } });
}

describe.each([...API_VERSIONS])('%s trainee answers against the Trainee schema', (version) => {
  const validate = traineeValidator(version);
  const output = outputFor(version);

  it.each([
    ['no disability keys', {}],
    ['disability1 only', { disability1: '58' }],
    ['disability1 to disability3', { disability1: '58', disability2: '57', disability3: '56' }],
  ])('validates with %s', (_label, disabilities) => {
    const answer = output.serializeTrainee(traineeWith(disabilities), { nested: true });
    expect(validate(answer) ? [] : validate.errors).toEqual([]);
  });

  it('refuses a disability key answered as anything but a string (other than the listed nullable ones)', () => {
    const answer = { ...output.serializeTrainee(traineeWith({ disability1: '58' }), { nested: true }), disability7: 7 };
    expect(validate(answer)).toBe(false);
  });
});
