import { EnvError, makeValidator } from 'envalid';
import { SANDBOX_REGISTRY_MAX_DELAY_MS } from '@app/registry';

/** The kinds of value the configuration's variables hold, as `envalid` validators and parsers (config.ts). */

/** A TCP port to listen on: an integer 0–65535 (0 lets the system choose a free port). */
export const listenPort = makeValidator<number>((input) => {
  const n = Number(input);
  if (!/^\d+$/.test(String(input).trim()) || n > 65535) throw new EnvError(`Invalid port input: "${input}"`);
  return n;
});

/**
 * A delay in ms: a whole number from 0 to 2147483647 (2^31 − 1, the longest a timer waits), written
 * in digits only (no sign, fraction or exponent).
 */
export const delayMs = makeValidator<number>((input) => {
  const text = String(input).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > SANDBOX_REGISTRY_MAX_DELAY_MS) {
    throw new EnvError(`Invalid delay: "${input}" (a whole number of milliseconds from 0 to ${SANDBOX_REGISTRY_MAX_DELAY_MS}; 0: at once)`);
  }
  return n;
});

/** A whole number from 0 to 1,000,000,000, digits only. */
export const count = makeValidator<number>((input) => {
  const text = String(input).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 1_000_000_000) throw new EnvError(`Invalid count: "${input}" (a whole number from 0)`);
  return n;
});

/** A comma-separated list, trimmed, empty items left out. */
export function list(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** `TRUST_PROXY` as Fastify reads it: `true`/`false`, a hop count, or the addresses as given. */
export function parseTrustProxy(value: string): boolean | number | string {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return value.trim();
}

/** A whole number from 1 to 1,000,000,000 (1 024 MB as bytes), digits only: a bound that cannot be 0. */
export const positiveCount = makeValidator<number>((input) => {
  const text = String(input).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1_000_000_000) throw new EnvError(`Invalid count: "${input}" (a whole number from 1)`);
  return n;
});
