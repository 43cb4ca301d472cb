/**
 * Answers sent as stored bytes (docs/DESIGN.md "Answers stored as bytes"): the read model holds each
 * trainee's answer JSON per API version, and these wrap it in the contract's envelopes without
 * parsing it: `{data}` (docs/spec/trainee-records-api.md "Conventions") and `{data: [...], meta}`
 * ("GET /trainees").
 * A handler returning these bytes declares the JSON content type with `@Header('content-type',
 * JSON_CONTENT_TYPE)`; Fastify then sends the Buffer as it is.
 */

/** The content type Fastify gives a JSON answer; the same for answers sent as bytes. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const DATA_OPEN = Buffer.from('{"data":');
const LIST_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');

/** `{"data":<json>}` for one answer's JSON bytes. */
export function dataAnswer(json: Buffer): Buffer {
  return Buffer.concat([DATA_OPEN, json, CLOSE], DATA_OPEN.length + json.length + 1);
}

/** `{"data":[<item>,…],"meta":<meta>}` for list items' JSON bytes and the page's meta. */
export function listAnswer(items: readonly Buffer[], meta: object): Buffer {
  const chunks: Buffer[] = [LIST_OPEN];
  items.forEach((item, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(item);
  });
  chunks.push(Buffer.from(`],"meta":${JSON.stringify(meta)}}`));
  return Buffer.concat(chunks);
}
