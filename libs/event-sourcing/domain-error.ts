/** A typed error a decider raises, mapped to HTTP in one place (the API's error filter). */
export abstract class DomainError extends Error {
  abstract readonly kind: string;
}
