/**
 * The answer bytes the trainee projection stores (docs/DESIGN.md "Answers stored as bytes") are
 * exactly the serializer's JSON: the body is the single-trainee answer, and its first `itemEnd`
 * bytes plus `}` are the list item, for any text in the record (multi-byte UTF-8 included).
 */
import fc from 'fast-check';
import { evolveAll } from '@app/trainees/decider';
import { type Trainee, API_VERSIONS } from '@app/trainees/record';
import { EXAMPLE_DETAILS, exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { outputFor } from './trainee.output';
import { answerItem, renderTraineeAnswer, renderTraineeAnswers } from './trainee-answers';

function traineeNamed(first_names: string, last_name: string, disabilities: Record<string, string> = {}): Trainee {
  const state = evolveAll(exampleRegistration({ details: { ...EXAMPLE_DETAILS, first_names, last_name, disabilities } }));
  if (!state.exists) throw new Error('the example registers a trainee');
  return state.trainee;
}

describe('renderTraineeAnswers', () => {
  it('renders one answer per implemented version, in API_VERSIONS order', () => {
    expect(renderTraineeAnswers(traineeNamed('A', 'B')).map((a) => a.version)).toEqual([...API_VERSIONS]);
  });

  /** `disabilityN` keys, N in 1…25, in any order, with any text. */
  const disabilities = fc.dictionary(
    fc.integer({ min: 1, max: 25 }).map((n) => `disability${n}`),
    fc.string({ maxLength: 8 }),
    { maxKeys: 6 },
  );

  it.each([...API_VERSIONS])('%s: body and item are the serializer’s JSON, whatever the names and disability keys hold', (version) => {
    const output = outputFor(version);
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        disabilities,
        (first, last, d) => {
          const trainee = traineeNamed(first, last, d);
          const answer = renderTraineeAnswer(trainee, version);
          expect(answer.body.toString('utf8')).toBe(JSON.stringify(output.serializeTrainee(trainee, { nested: true })));
          expect(answerItem(answer).toString('utf8')).toBe(JSON.stringify(output.serializeTrainee(trainee, { nested: false })));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps placements and degrees out of the item and in the body', () => {
    const answer = renderTraineeAnswer(traineeNamed('Zoë', 'Ångström'), 'v2026.1');
    const body = JSON.parse(answer.body.toString()) as Record<string, unknown[]>;
    const item = JSON.parse(answerItem(answer).toString()) as Record<string, unknown>;
    expect(body.placements.length + body.degrees.length).toBeGreaterThan(0);
    expect(item).not.toHaveProperty('placements');
    expect(item).not.toHaveProperty('degrees');
    expect(item.first_names).toBe('Zoë');
  });
});
