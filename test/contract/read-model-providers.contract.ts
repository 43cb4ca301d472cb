/**
 * The read-model contract's suite of providers and tokens (test/contract/read-model.contract.ts):
 * registrations, issues, uses and revocations, batch by batch or in one batch, redelivered, and
 * the orders of the lists. Rule sources: docs/DESIGN.md "Read models"; docs/reference/API-FACTS.md
 * §2.6, §2.7 (token expiry and use); the ports' documentation.
 */
import type { ProviderEvent } from '@app/providers/decider';
import { type ContractRun, type EventLog, interleave, openContractRun, randomUkprn } from './read-model-fixtures';
import type { ReadModelContractContext } from './read-model.contract';

/**
 * Registers the provider and token suite of the read-model contract for adapter `name`; `factory`
 * is called before each test and the returned `cleanup` after it.
 */
export function describeProvidersContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
  describe(`Read-model contract: ${name}`, () => {
    let ctx: ReadModelContractContext;
    let rm: ContractRun['rm'];
    let log: EventLog;
    /** Unique per test: prefix of every trainee and token id. */
    let run: string;
    let ukprn: string;

    beforeEach(async () => {
      ({ ctx, rm, log, run, ukprn } = await openContractRun(factory));
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

    const tid = (label: string): string => `${run}-${label}`;

    describe('providers and tokens', () => {
      const hash = (label: string): string => `${run}${label}`.padEnd(64, '0').toLowerCase();

      it('shows a registered provider, issued tokens and a revocation, batch by batch', async () => {
        const [t1, t2] = [tid('tok1'), tid('tok2')];
        await rm.applyBatch(
          log.provider([{ type: 'ProviderRegistered', data: { ukprn, name: 'Contract University', at: '2025-01-01T09:00:00.000Z' } }]),
        );
        expect(await rm.getProvider(ukprn)).toEqual({ ukprn, name: 'Contract University', created_at: '2025-01-01T09:00:00.000Z' });
        expect(await rm.listTokens(ukprn)).toEqual([]);

        await rm.applyBatch(
          log.provider([
            { type: 'TokenIssued', data: { ukprn, token_id: t1, token_hash: hash('a'), expires_at: null, at: '2025-01-02T09:00:00.000Z' } },
          ]),
        );
        await rm.applyBatch(
          log.provider([
            { type: 'TokenIssued', data: { ukprn, token_id: t2, token_hash: hash('b'), expires_at: null, at: '2025-01-03T09:00:00.000Z' } },
          ]),
        );
        const unused = { expires_at: null, last_used_at: null };
        const active1 = { token_id: t1, ukprn, status: 'active', issued_at: '2025-01-02T09:00:00.000Z', revoked_at: null, ...unused };
        const active2 = { token_id: t2, ukprn, status: 'active', issued_at: '2025-01-03T09:00:00.000Z', revoked_at: null, ...unused };
        expect(await rm.findTokenByHash(hash('a'))).toEqual(active1);
        expect(await rm.getToken(t2)).toEqual(active2);

        await rm.applyBatch(log.provider([{ type: 'TokenRevoked', data: { ukprn, token_id: t1, at: '2025-01-04T09:00:00.000Z' } }]));
        const revoked1 = { ...active1, status: 'revoked', revoked_at: '2025-01-04T09:00:00.000Z' };
        expect(await rm.findTokenByHash(hash('a'))).toEqual(revoked1);
        expect(await rm.getToken(t1)).toEqual(revoked1);
        expect(await rm.listTokens(ukprn)).toEqual([revoked1, active2]);
        expect(await rm.getProvider(ukprn)).toEqual({ ukprn, name: 'Contract University', created_at: '2025-01-01T09:00:00.000Z' });
        expect((await rm.listProviders()).filter((p) => p.ukprn === ukprn)).toEqual([
          { ukprn, name: 'Contract University', created_at: '2025-01-01T09:00:00.000Z' },
        ]);
      });

      it('applies registration, issue and revocation in one batch, and a redelivered issue does not reactivate a revoked token', async () => {
        const [t1, t2] = [tid('one'), tid('two')];
        const batch = log.provider([
          { type: 'ProviderRegistered', data: { ukprn, name: 'One Batch SCITT', at: '2025-02-01T09:00:00.000Z' } },
          { type: 'TokenIssued', data: { ukprn, token_id: t1, token_hash: hash('c'), expires_at: null, at: '2025-02-01T09:01:00.000Z' } },
          { type: 'TokenIssued', data: { ukprn, token_id: t2, token_hash: hash('d'), expires_at: null, at: '2025-02-01T09:02:00.000Z' } },
          { type: 'TokenRevoked', data: { ukprn, token_id: t1, at: '2025-02-01T09:03:00.000Z' } },
        ]);
        await rm.applyBatch(batch);
        const revoked1 = {
          token_id: t1,
          ukprn,
          status: 'revoked',
          issued_at: '2025-02-01T09:01:00.000Z',
          revoked_at: '2025-02-01T09:03:00.000Z',
          expires_at: null,
          last_used_at: null,
        };
        const active2 = {
          token_id: t2,
          ukprn,
          status: 'active',
          issued_at: '2025-02-01T09:02:00.000Z',
          revoked_at: null,
          expires_at: null,
          last_used_at: null,
        };
        expect(await rm.listTokens(ukprn)).toEqual([revoked1, active2]);

        await rm.applyBatch([batch[1]]);
        await rm.applyBatch(batch);
        await rm.applyBatch(batch.slice(0, 2));
        expect(await rm.findTokenByHash(hash('c'))).toEqual(revoked1);
        expect(await rm.listTokens(ukprn)).toEqual([revoked1, active2]);
        expect(await rm.getProvider(ukprn)).toEqual({ ukprn, name: 'One Batch SCITT', created_at: '2025-02-01T09:00:00.000Z' });
      });

      it('keeps a token’s expiry and its latest use, whatever the order or redelivery of uses (API-FACTS §2.6, §2.7)', async () => {
        const [t1, t2] = [tid('exp1'), tid('exp2')];
        const used = (token_id: string, on: string): ProviderEvent => ({
          type: 'TokenUsed',
          data: { ukprn, token_id, on, at: `${on}T08:00:00.000Z` },
        });
        const batch = log.provider([
          { type: 'ProviderRegistered', data: { ukprn, name: 'Expiring SCITT', at: '2025-05-01T09:00:00.000Z' } },
          {
            type: 'TokenIssued',
            data: { ukprn, token_id: t1, token_hash: hash('x'), expires_at: '2025-11-01', at: '2025-05-01T09:01:00.000Z' },
          },
          {
            type: 'TokenIssued',
            data: { ukprn, token_id: t2, token_hash: hash('y'), expires_at: '2025-06-01', at: '2025-05-01T09:02:00.000Z' },
          },
          used(t1, '2025-05-03'),
          used(t1, '2025-05-02'),
          used(t2, '2025-05-02'),
        ]);
        await rm.applyBatch(batch.slice(0, 4));
        await rm.applyBatch(batch.slice(4));
        expect(await rm.getToken(t1)).toMatchObject({ expires_at: '2025-11-01', last_used_at: '2025-05-03T08:00:00.000Z' });
        expect(await rm.findTokenByHash(hash('y'))).toMatchObject({ expires_at: '2025-06-01', last_used_at: '2025-05-02T08:00:00.000Z' });

        await rm.applyBatch(log.provider([{ type: 'TokenRevoked', data: { ukprn, token_id: t1, at: '2025-05-04T09:00:00.000Z' } }]));
        await rm.applyBatch(batch);
        expect(await rm.listTokens(ukprn)).toEqual([
          {
            token_id: t1,
            ukprn,
            status: 'revoked',
            issued_at: '2025-05-01T09:01:00.000Z',
            revoked_at: '2025-05-04T09:00:00.000Z',
            expires_at: '2025-11-01',
            last_used_at: '2025-05-03T08:00:00.000Z',
          },
          {
            token_id: t2,
            ukprn,
            status: 'active',
            issued_at: '2025-05-01T09:02:00.000Z',
            revoked_at: null,
            expires_at: '2025-06-01',
            last_used_at: '2025-05-02T08:00:00.000Z',
          },
        ]);
      });

      it('lists tokens by issue time then token id, and keeps providers apart', async () => {
        const other = randomUkprn();
        const [late, tieB, tieA, foreign] = [tid('late'), tid('tie-b'), tid('tie-a'), tid('foreign')];
        await rm.applyBatch(
          interleave(
            log.provider([
              { type: 'ProviderRegistered', data: { ukprn, name: 'Ordered', at: '2025-03-01T09:00:00.000Z' } },
              {
                type: 'TokenIssued',
                data: { ukprn, token_id: late, token_hash: hash('e'), expires_at: null, at: '2025-03-05T09:00:00.000Z' },
              },
              {
                type: 'TokenIssued',
                data: { ukprn, token_id: tieB, token_hash: hash('f'), expires_at: null, at: '2025-03-06T09:00:00.000Z' },
              },
              {
                type: 'TokenIssued',
                data: { ukprn, token_id: tieA, token_hash: hash('g'), expires_at: null, at: '2025-03-06T09:00:00.000Z' },
              },
            ]),
            log.provider([
              { type: 'ProviderRegistered', data: { ukprn: other, name: 'Other', at: '2025-03-01T09:00:00.000Z' } },
              {
                type: 'TokenIssued',
                data: { ukprn: other, token_id: foreign, token_hash: hash('h'), expires_at: null, at: '2025-03-04T09:00:00.000Z' },
              },
            ]),
          ),
        );
        expect((await rm.listTokens(ukprn)).map((t) => t.token_id)).toEqual([late, tieA, tieB]);
        expect((await rm.listTokens(other)).map((t) => t.token_id)).toEqual([foreign]);
        expect(await rm.findTokenByHash(hash('h'))).toMatchObject({ token_id: foreign, ukprn: other });
      });

      it('lists providers ordered by UKPRN', async () => {
        const [low, high] = ['1', '9'].map((d) => `${d}${randomUkprn().slice(1)}`);
        await rm.applyBatch(
          log.provider([{ type: 'ProviderRegistered', data: { ukprn: high, name: 'High', at: '2025-04-01T09:00:00.000Z' } }]),
        );
        await rm.applyBatch(
          log.provider([{ type: 'ProviderRegistered', data: { ukprn: low, name: 'Low', at: '2025-04-02T09:00:00.000Z' } }]),
        );
        const all = await rm.listProviders();
        expect(all.filter((p) => p.ukprn === low || p.ukprn === high)).toEqual([
          { ukprn: low, name: 'Low', created_at: '2025-04-02T09:00:00.000Z' },
          { ukprn: high, name: 'High', created_at: '2025-04-01T09:00:00.000Z' },
        ]);
        const ukprns = all.map((p) => p.ukprn);
        expect(ukprns).toEqual([...ukprns].sort());
      });

      it('answers null or empty for unknown providers, tokens and hashes', async () => {
        expect(await rm.getProvider(randomUkprn())).toBeNull();
        expect(await rm.getToken(tid('none'))).toBeNull();
        expect(await rm.findTokenByHash(hash('none'))).toBeNull();
        expect(await rm.listTokens(ukprn)).toEqual([]);
      });
    });
  });
}
