/** A trainee's answers as bytes, made once per change, not per read (docs/DESIGN.md "Answers stored as bytes"). */
import { type Trainee, API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import { outputFor } from './trainee.output';

/** One version's answer of one trainee. */
export interface TraineeAnswer {
  version: ApiVersion;
  /** UTF-8 JSON of `serializeTrainee(trainee, {nested: true})`: the `data` of GET /trainees/{id}. */
  body: Buffer;
  /** `body[0, itemEnd)` followed by `}` is the list item (`serializeTrainee(trainee, {nested: false})`). */
  itemEnd: number;
}

const CLOSE = Buffer.from('}');

/** The trainee's answer in every implemented API version (`API_VERSIONS`), in that order. */
export function renderTraineeAnswers(trainee: Trainee): TraineeAnswer[] {
  return API_VERSIONS.map((version) => renderTraineeAnswer(trainee, version));
}

/** The trainee's answer in `version`, the list item a prefix of it (`placements` and `degrees` come last). */
export function renderTraineeAnswer(trainee: Trainee, version: ApiVersion): TraineeAnswer {
  const output = outputFor(version);
  const item = output.traineeItemJson(trainee);
  const nested =
    `,"placements":${JSON.stringify(trainee.placements.map((p) => output.serializePlacement(p)))}` +
    `,"degrees":${JSON.stringify(trainee.degrees.map((d) => output.serializeDegree(d)))}}`;
  const head = item.slice(0, -1);
  return { version, body: Buffer.from(head + nested), itemEnd: Buffer.byteLength(head) };
}

/** The list item bytes of an answer: `body[0, itemEnd)` and the closing brace. */
export function answerItem(answer: Pick<TraineeAnswer, 'body' | 'itemEnd'>): Buffer {
  return Buffer.concat([answer.body.subarray(0, answer.itemEnd), CLOSE]);
}
