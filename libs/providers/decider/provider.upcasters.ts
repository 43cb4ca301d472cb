import { registerUpcaster } from '@app/event-sourcing';

/**
 * Upcasters of provider events (docs/DESIGN.md "Event envelope": old schema versions are read as
 * the current one; stored events are never rewritten).
 *
 * `TokenIssued` v1 → v2: tokens issued before tokens expired carry no `expires_at`; they read as
 * `expires_at: null`, a token that never expires (docs/DESIGN.md "Tokens": an operator revokes and
 * reissues such a token to give it an expiry).
 */
registerUpcaster('TokenIssued', 1, (data) => ({ ...(data as object), expires_at: null }));
