import fc from 'fast-check';
import { renderTraineeAnswer } from '@app/trainees/answers';
import { evolveAll } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { answerPatch, applyAnswerPatch } from './answer-patch';

/** Comma-separated fields from a few values, so that two texts share many tokens. */
const fields = fc.array(fc.constantFrom('"a":1', '"b":"x,y"', '"c":[1,2]', '"d":null', '"é":"ü"', '{', '}', ''), { maxLength: 60 });
const text = (parts: string[]) => Buffer.from(parts.join(','));

describe('answer patches', () => {
  it('make the target again from the base, byte for byte, whatever the two texts', () => {
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        const base = text(a);
        const target = text(b);
        const patch = answerPatch(base, target, 200);
        if (patch !== null) expect(applyAnswerPatch(base, patch).equals(target)).toBe(true);
      }),
    );
  });

  it('pay for texts that differ in a few fields, and make them again', () => {
    fc.assert(
      fc.property(fields, fc.array(fc.tuple(fc.nat(80), fc.constantFrom('"z":9', '')), { maxLength: 4 }), (parts, edits) => {
        const base = text([...parts, ...parts, ...parts]);
        const changed = [...parts, ...parts, ...parts];
        for (const [at, value] of edits) changed.splice(at % (changed.length + 1), value === '' ? 1 : 0, ...(value === '' ? [] : [value]));
        const target = text(changed);
        const patch = answerPatch(base, target);
        if (target.length >= 200) expect(patch).not.toBeNull();
        if (patch !== null) expect(applyAnswerPatch(base, patch).equals(target)).toBe(true);
      }),
    );
  });

  it('keep an older version’s answer of a trainee in an eighth of its bytes', () => {
    const state = evolveAll(exampleRegistration());
    if (!state.exists) throw new Error('the example registers a trainee');
    const trainee = state.trainee;
    const newest = renderTraineeAnswer(trainee, 'v2026.1').body;
    const older = renderTraineeAnswer(trainee, 'v2025.0').body;
    const patch = answerPatch(newest, older)!;
    expect(applyAnswerPatch(newest, patch).equals(older)).toBe(true);
    expect(patch.length).toBeLessThan(older.length / 8);
  });

  it('patch texts whose first bytes differ, copying nothing before the first difference', () => {
    const base = text(['[', ...Array(30).fill('"a":1')]);
    const target = text(['{', ...Array(30).fill('"a":1')]);
    const patch = answerPatch(base, target)!;
    expect(applyAnswerPatch(base, patch).equals(target)).toBe(true);
    expect(patch.length).toBeLessThan(20);
  });

  it('refuse when no patch pays: more edits than allowed, or a patch larger than half the target', () => {
    const base = text(Array.from({ length: 100 }, (_, i) => `"k${i}":${i}`));
    const target = text(Array.from({ length: 100 }, (_, i) => `"k${i}":${i + 1}`));
    expect(answerPatch(base, target)).toBeNull();
    expect(answerPatch(Buffer.from('"a":1'), Buffer.from('"b":2'))).toBeNull();
  });

  it('throw on a patch that does not fit its base', () => {
    const patch = answerPatch(text(Array(40).fill('"a":1')), text([...Array(40).fill('"a":1'), '"b":2']))!;
    expect(() => applyAnswerPatch(Buffer.from('short'), patch)).toThrow(RangeError);
    expect(() => applyAnswerPatch(Buffer.from('x'), Buffer.from([7]))).toThrow(RangeError);
  });
});
