/**
 * A domain error: a value with a type (`kind`), raised by a decider and mapped to HTTP in exactly
 * one place (the API's error filter), never shown as an internal error.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: string;
}
