/**
 * A trainee's answers as bytes, made once per change by the trainee projection instead of once per
 * read (docs/DESIGN.md "Read models", "Answers stored as bytes"): for every API version, the JSON of
 * the single-trainee answer's trainee (with placements and degrees), whose leading bytes are also
 * the list item (the same fields, without placements and degrees; docs/DESIGN.md ruling 3).
 */
import { type Trainee, API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import { contractFor } from '../contract';

/** One version's answer of one trainee. */
export interface TraineeAnswer {
  version: ApiVersion;
  /** UTF-8 JSON of `serializeTrainee(trainee, {nested: true})`: the `data` of GET /trainees/{id}. */
  body: Buffer;
  /**
   * Bytes of `body` before `,"placements":…`: `body[0, itemEnd)` followed by `}` is the JSON of
   * `serializeTrainee(trainee, {nested: false})`, the list item.
   */
  itemEnd: number;
}

const CLOSE = Buffer.from('}');

/** The trainee's answer in every implemented API version (`API_VERSIONS`), in that order. */
export function renderTraineeAnswers(trainee: Trainee): TraineeAnswer[] {
  return API_VERSIONS.map((version) => renderTraineeAnswer(trainee, version));
}

/**
 * The trainee's answer in `version`. The item is serialized first and the nested fields appended
 * after its last field, so the item is a prefix of the body (the serializer puts `placements` and
 * `degrees` after every other field).
 */
export function renderTraineeAnswer(trainee: Trainee, version: ApiVersion): TraineeAnswer {
  const output = contractFor(version).output;
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
