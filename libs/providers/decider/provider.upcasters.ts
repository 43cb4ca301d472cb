import { registerUpcaster } from '@app/event-sourcing';

/** `TokenIssued` v1 → v2: tokens issued before tokens expired read `expires_at: null`, never expiring (docs/DESIGN.md "Tokens"). */
registerUpcaster('TokenIssued', 1, (data) => ({ ...(data as object), expires_at: null }));
