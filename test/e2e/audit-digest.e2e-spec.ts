/**
 * GET /api/{version}/audit/digest (docs/operations.md "Signed digests"; docs/DESIGN.md "Inclusion
 * proofs"): 404 before any digest is signed; then the latest digest `admin audit digest` signed,
 * with the key's fingerprint; with `trainee_id`, the audit path from that trainee's head as of the
 * digest to its signed root, which holds by RFC 9162's rule; null for a trainee registered after
 * the digest; 404 for an unknown trainee and another provider's.
 */
import { createHash } from 'node:crypto';
import { digestSignatureHolds, keyFingerprint, leafHash, rootFromPath, type InclusionProof, type SignedDigest } from '@app/audit';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

/** The admin CLI, loaded once in a process of its own for this file (test/support/admin-cli.ts). */
const admin = AdminWorker.forFile();

type DigestAnswer = SignedDigest & { key_fingerprint: string; trainee_id?: string; inclusion?: InclusionProof | null };

describe('GET /audit/digest', () => {
  let api: RunningApi;
  let token: string;
  const base = '/api/v2026.1';

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000140');
  });
  afterAll(() => api.close());

  const create = async (as = token): Promise<string> => {
    const created = await api.request('POST', `${base}/trainees`, as, uniqueTrainee('v2026.1'));
    expect(created.status).toBe(201);
    return (created.body as { data: { trainee_id: string } }).data.trainee_id;
  };

  it('answers 404 in the contract shape before any digest is signed', async () => {
    const res = await api.request('GET', `${base}/audit/digest`, token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'No audit digest has been signed yet' }] });
  });

  it('answers the signed digest and a proof of each trainee head that holds against its root', async () => {
    const first = await create();
    const second = await create();
    const patched = await api.request('PATCH', `${base}/trainees/${second}`, token, { data: { first_names: 'Grace' } });
    expect(patched.status).toBe(200);
    const signed = await admin.run(['audit', 'digest', '--by', 'auditor'], api.dataDir);
    expect(signed.code).toBe(0);
    const later = await create();

    const plain = await api.request('GET', `${base}/audit/digest`, token);
    expect(plain.status).toBe(200);
    const digest = (plain.body as { data: DigestAnswer }).data;
    expect(digestSignatureHolds(digest)).toBe(true);
    expect(digest.key_fingerprint).toBe(keyFingerprint(digest.public_key));
    const { key_fingerprint: fingerprint, ...fields } = digest;
    expect(fields).toEqual(JSON.parse(signed.stdout.trim()) as SignedDigest);
    expect(signed.stderr).toContain(`key fingerprint ${fingerprint}`);

    // Neither trainee changed after the digest: its head then is its last event now.
    for (const id of [first, second]) {
      const res = await api.request('GET', `${base}/audit/digest?trainee_id=${id}`, token);
      expect(res.status).toBe(200);
      const answer = (res.body as { data: DigestAnswer }).data;
      expect(answer.trainee_id).toBe(id);
      const proof = answer.inclusion!;
      const history = await api.request('GET', `${base}/trainees/${id}/history`, token);
      const head = (history.body as { data: { revision: number; hash: string }[] }).data.at(-1)!;
      expect(proof).toMatchObject({ stream_id: `trainee-${id}`, revision: head.revision, hash: head.hash, tree_size: digest.streams });
      const leaf = leafHash({ streamId: proof.stream_id, revision: proof.revision, hash: proof.hash });
      const path = proof.audit_path.map((h) => Buffer.from(h, 'hex'));
      expect(rootFromPath(proof.leaf_index, digest.streams, leaf, path)?.toString('hex')).toBe(digest.root);
      const forged = createHash('sha256').update(proof.hash).digest('hex');
      const forgedLeaf = leafHash({ streamId: proof.stream_id, revision: proof.revision, hash: forged });
      expect(rootFromPath(proof.leaf_index, digest.streams, forgedLeaf, path)?.toString('hex')).not.toBe(digest.root);
    }

    const after = await api.request('GET', `${base}/audit/digest?trainee_id=${later}`, token);
    expect(after.status).toBe(200);
    expect((after.body as { data: DigestAnswer }).data.inclusion).toBeNull();
  });

  it("answers 404 Trainee(s) not found for an unknown trainee and another provider's", async () => {
    const other = await api.providerToken('10000999');
    const theirs = await create(other);
    for (const id of [theirs, 'no-such-trainee', 'x'.repeat(300)]) {
      const res = await api.request('GET', `${base}/audit/digest?trainee_id=${id}`, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [{ error: 'NotFound', message: 'Trainee(s) not found' }] });
    }
  });

  it('needs a token', async () => {
    const res = await api.request('GET', `${base}/audit/digest`, null);
    expect(res.status).toBe(401);
  });
});
