import type { JsonSchema } from '../wire/wire-object';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A SHA-256 in lower-case hex. */
const HEX64 = '^[0-9a-f]{64}$';

/**
 * The schemas of GET /audit/digest (docs/operations.md "Signed digests"; docs/DESIGN.md "Signed
 * digests", "Inclusion proofs"), the same in every version's document.
 */
export const AUDIT_SCHEMAS: Record<string, JsonSchema> = {
  AuditDigest: {
    type: 'object',
    description:
      'A signed digest of the log (docs/DESIGN.md "Signed digests"): Ed25519 over `JSON.stringify([format, position, time, streams, root])`.',
    properties: {
      format: { type: 'string', const: 'trainee-records-audit-digest/1' },
      position: { type: 'integer', minimum: 0, description: 'The log position it covers: every event at or below it.' },
      time: { type: 'string', format: 'date-time', description: 'When it was signed (UTC).' },
      streams: { type: 'integer', minimum: 0, description: 'How many stream heads the Merkle tree holds (its leaves).' },
      root: { type: 'string', pattern: HEX64, description: "RFC 6962 Merkle root (hex) over the streams' heads in stream-id order." },
      public_key: {
        type: 'object',
        description: 'The Ed25519 public key that signed it, as a JWK.',
        properties: {
          kty: { type: 'string', const: 'OKP' },
          crv: { type: 'string', const: 'Ed25519' },
          x: { type: 'string', maxLength: 43 },
        },
        required: ['kty', 'crv', 'x'],
        additionalProperties: false,
      },
      signature: { type: 'string', maxLength: 88, description: 'Base64 of the Ed25519 signature.' },
      key_fingerprint: {
        type: 'string',
        pattern: HEX64,
        description: "SHA-256 (hex) of the public key's 32 bytes, to compare with the published one.",
      },
      trainee_id: { type: 'string', description: 'The trainee asked for (with `trainee_id`).' },
      inclusion: {
        description:
          "With `trainee_id`: the proof that the trainee's stream head as of `position` is a leaf of the tree (RFC 9162 §2.1.3); " +
          'null when its stream began after `position`.',
        oneOf: [{ type: 'null' }, ref('InclusionProof')],
      },
    },
    required: ['format', 'position', 'time', 'streams', 'root', 'public_key', 'signature', 'key_fingerprint'],
    additionalProperties: false,
  },
  InclusionProof: {
    type: 'object',
    description:
      'The leaf is SHA-256 of a zero byte then `JSON.stringify([stream_id, revision, hash])`; each step of `audit_path` is SHA-256 of a one byte then left and right.',
    properties: {
      stream_id: { type: 'string' },
      revision: { type: 'integer', minimum: 0, description: "The stream's last revision at the digest's position." },
      hash: { type: 'string', pattern: HEX64, description: "That event's hash (as in the history)." },
      leaf_index: { type: 'integer', minimum: 0 },
      tree_size: { type: 'integer', minimum: 1 },
      audit_path: { type: 'array', items: { type: 'string', pattern: HEX64 }, maxItems: 64, description: 'Sibling hashes, leaf upward.' },
    },
    required: ['stream_id', 'revision', 'hash', 'leaf_index', 'tree_size', 'audit_path'],
    additionalProperties: false,
  },
  AuditDigestResponse: {
    type: 'object',
    properties: { data: ref('AuditDigest') },
    required: ['data'],
    additionalProperties: false,
  },
};
