/**
 * Stored answer bytes wrapped in the contract's envelopes without parsing (docs/DESIGN.md "Answers stored as bytes"); a handler
 * returning them declares {@link JSON_CONTENT_TYPE} with `@Header`, and Fastify sends the Buffer as it is.
 */

/** As Fastify gives a JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const DATA_OPEN = Buffer.from('{"data":');
const LIST_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');

export function dataAnswer(json: Buffer): Buffer {
  return Buffer.concat([DATA_OPEN, json, CLOSE], DATA_OPEN.length + json.length + 1);
}

export function listAnswer(items: readonly Buffer[], meta: object): Buffer {
  const chunks: Buffer[] = [LIST_OPEN];
  items.forEach((item, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(item);
  });
  chunks.push(Buffer.from(`],"meta":${JSON.stringify(meta)}}`));
  return Buffer.concat(chunks);
}
