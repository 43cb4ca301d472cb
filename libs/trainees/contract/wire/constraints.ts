/**
 * The wire checks as `class-validator` decorators, each answering docs/reference/API-FACTS.md's message byte for byte, labelled by the
 * wire name, optionally prefixed (§5.2). A composite value in a scalar field arrives as a {@link NonScalar}, so no check recurses
 * into deep nesting. Form checks pass a blank value (the record rules decide presence), except {@link Required}.
 */
import { registerDecorator, type ValidationArguments } from 'class-validator';
import { parseIsoDateOrDateTime, type CodeBook } from '@app/trainees/decider';
import { parseIsoDate } from '@app/calendar';
import type { RefListName } from '@app/trainees/record';
import { asText, charLength, echoValue, isBlank as isBlankJson } from './values';

/** A JSON array or object sent where a scalar belongs: its blankness and its bounded echo, nothing more. */
export class NonScalar {
  readonly blank: boolean;
  readonly echo: string;
  /** Nested items are checked from the source, item by item. */
  readonly array: boolean;
  readonly items: number;
  constructor(value?: unknown) {
    this.blank = isBlankJson(value);
    this.echo = value === undefined ? '' : echoValue(value);
    this.array = Array.isArray(value);
    this.items = Array.isArray(value) ? value.length : 0;
  }
}

/** Ruby's `blank?` on a wire value (a {@link NonScalar} keeps its own answer). */
export function isBlank(value: unknown): boolean {
  return value instanceof NonScalar ? value.blank : isBlankJson(value);
}

/** A value as echoed in a message: strings as sent, other values as bounded JSON text. */
export function echoOf(value: unknown): string {
  return value instanceof NonScalar ? value.echo : echoValue(value);
}

/** The text of a free-text value (a string, or a finite number's decimal text), else undefined. */
export function textOf(value: unknown): string | undefined {
  return value instanceof NonScalar ? undefined : asText(value);
}

export interface CheckOptions {
  /** Written before the field's name (`placements_attributes `), default none. */
  prefix?: string;
  /** The label to use instead of the property's name. */
  label?: string;
}

type Test = (value: unknown, args: ValidationArguments) => boolean;
type Message = (label: string, value: unknown, args: ValidationArguments) => string;

/** Registers one check: `test` true means the rule holds; otherwise `message` is the problem. */
function check(name: string, test: Test, message: Message, options: CheckOptions = {}): PropertyDecorator {
  return (target: object, propertyKey: string | symbol) => {
    const property = String(propertyKey);
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: property,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => test(value, args),
        defaultMessage: (args: ValidationArguments) => message(`${options.prefix ?? ''}${options.label ?? property}`, args.value, args),
      },
    });
  };
}

/** A value of the form's kind, or blank. */
const blankOr =
  (test: (value: unknown, args: ValidationArguments) => boolean): Test =>
  (value, args) =>
    isBlank(value) || test(value, args);

/** Required: not blank (`<label> can't be blank`, or the given message). */
export function Required(options: CheckOptions & { message?: (label: string) => string } = {}): PropertyDecorator {
  return check(
    'required',
    (v) => !isBlank(v),
    (label) => options.message?.(label) ?? `${label} can't be blank`,
    options,
  );
}

/** Free text: a string or a finite JSON number (`<label> is invalid`; docs/reference/API-FACTS.md §6.4). */
export function IsText(options: CheckOptions = {}): PropertyDecorator {
  return check(
    'isText',
    blankOr((v) => textOf(v) !== undefined),
    (label) => `${label} is invalid`,
    options,
  );
}

/** At most `max` characters (code points): `<label> is too long (maximum is <max> characters)`. */
export function MaxChars(max: number, options: CheckOptions = {}): PropertyDecorator {
  return check(
    'maxChars',
    blankOr((v) => {
      const t = textOf(v);
      return t === undefined || charLength(t) <= max;
    }),
    (label) => `${label} is too long (maximum is ${max} characters)`,
    options,
  );
}

/** A string of exactly one of `lengths` characters: `<label> must be 13 or 17 characters` (§6.4). */
export function LengthOneOf(lengths: readonly number[], options: CheckOptions = {}): PropertyDecorator {
  return check(
    'lengthOneOf',
    blankOr((v) => {
      const t = textOf(v);
      return t === undefined || lengths.includes(charLength(t));
    }),
    (label) => `${label} must be ${lengths.join(' or ')} characters`,
    options,
  );
}

/** An email address of the §6.4 format: `<label> Enter an email address in the correct format, like name@example.com`. */
export function IsEmailAddress(options: CheckOptions = {}): PropertyDecorator {
  return check(
    'isEmailAddress',
    blankOr((v) => {
      const t = textOf(v);
      return t === undefined || isValidEmailFormat(t);
    }),
    (label) => `${label} Enter an email address in the correct format, like name@example.com`,
    options,
  );
}

/** An ISO 8601 date as docs/reference/API-FACTS.md §6.5 reads it: `<label> is invalid` (or the given message). */
export function IsIsoDate(options: CheckOptions & { message?: (label: string) => string } = {}): PropertyDecorator {
  return check(
    'isIsoDate',
    blankOr((v) => typeof v === 'string' && v.length <= ISO_DATE_OR_DATE_TIME_MAX_CHARS && parseIsoDate(v) !== null),
    (label) => options.message?.(label) ?? `${label} is invalid`,
    options,
  );
}

/** Room for nanoseconds, an offset and white space around; longer is invalid (docs/DESIGN.md ruling 14). */
export const ISO_DATE_OR_DATE_TIME_MAX_CHARS = 64;

/** An ISO 8601 date or date-time (§12.4), with its own message. */
export function IsIsoDateOrDateTime(message: (label: string) => string, options: CheckOptions = {}): PropertyDecorator {
  return check(
    'isIsoDateOrDateTime',
    blankOr((v) => typeof v === 'string' && v.length <= ISO_DATE_OR_DATE_TIME_MAX_CHARS && parseIsoDateOrDateTime(v) !== null),
    (label) => message(label),
    options,
  );
}

/** A code of `list` as a JSON string (`numberAsText`: a number as its text, docs/DESIGN.md ruling 12); else the §6.9 message. */
export function IsCode(
  codes: CodeBook,
  list: RefListName,
  options: CheckOptions & { numberAsText?: boolean; message?: (label: string, value: unknown) => string } = {},
): PropertyDecorator {
  const read = (v: unknown): unknown => (options.numberAsText && typeof v === 'number' && Number.isFinite(v) ? String(v) : v);
  return check(
    `isCode:${list}`,
    blankOr((v) => codes.lookup(list, read(v)) !== undefined),
    (label, value) =>
      options.message?.(label, value) ?? codes.unknownCodeMessage(label, value instanceof NonScalar ? value.echo : value, list),
    options,
  );
}

/** A JSON string (or blank), else the given message. */
export function IsString(message: (label: string, value: unknown) => string, options: CheckOptions = {}): PropertyDecorator {
  return check(
    'isString',
    blankOr((v) => typeof v === 'string'),
    (label, value) => message(label, value),
    options,
  );
}

/** An array of items (or blank), else `<label> is invalid` (docs/reference/API-FACTS.md §6.6). */
export function IsArray(options: CheckOptions = {}): PropertyDecorator {
  return check(
    'isArray',
    blankOr((v) => v instanceof NonScalar && v.array),
    (label) => `${label} is invalid`,
    options,
  );
}

/** At most `max` items (docs/DESIGN.md ruling 14): `<label> is too long (maximum is <max> <unit>)`, as §6.4 words it; non-arrays pass. */
export function MaxItems(max: number, unit: string, options: CheckOptions = {}): PropertyDecorator {
  const count = (v: unknown): number => (v instanceof NonScalar ? v.items : Array.isArray(v) ? v.length : 0);
  return check(
    'maxItems',
    blankOr((v) => count(v) <= max),
    (label) => `${label} is too long (maximum is ${max} ${unit})`,
    options,
  );
}

/** A check of this property's value with a message that depends on the value. */
export function Satisfies(
  name: string,
  test: (value: unknown) => boolean,
  message: (label: string, value: unknown) => string,
  options: CheckOptions = {},
): PropertyDecorator {
  return check(
    name,
    blankOr((v) => test(v)),
    (label, value) => message(label, value),
    options,
  );
}

/** A rule of the whole object, reported on this property. */
export function Holds(
  name: string,
  test: (value: unknown, object: Record<string, unknown>) => boolean,
  message: (label: string) => string,
  options: CheckOptions = {},
): PropertyDecorator {
  return check(
    name,
    (v, args) => test(v, args.object as Record<string, unknown>),
    (label) => message(label),
    options,
  );
}

const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@([^.@][^@\s]+)$/;
const EMAIL_PART = /^(xn-|[a-z0-9]+)(-[a-z0-9]+)*$/i;
const EMAIL_TLD = /^([a-z]{2,63}|xn--([a-z0-9]+-)*[a-z0-9]+)$/i;

/** The email format rule of docs/reference/API-FACTS.md §6.4 (an upper-case top-level domain accepted). */
export function isValidEmailFormat(email: string): boolean {
  const m = EMAIL.exec(email);
  if (!m || email.length > 320 || email.includes('..')) return false;
  const host = m[1];
  if (host.length > 253) return false;
  const parts = host.split('.');
  if (parts.length < 2 || parts.some((p) => p.length > 63)) return false;
  return parts.every((p) => EMAIL_PART.test(p)) && EMAIL_TLD.test(parts[parts.length - 1]);
}

/** A full UK postcode, with the Royal Mail letter restrictions, or GIR 0AA; white space between the halves optional. */
const UK_POSTCODE =
  /^(?:GIR\s*0AA|[A-PR-UWYZ](?:[0-9][0-9]?|[A-HK-Y][0-9][0-9]?|[0-9][A-HJKPS-UW]|[A-HK-Y][0-9][ABEHMNPRVWXY])\s*[0-9][ABD-HJLNP-UW-Z]{2})$/i;

/** True when `postcode` is a valid full UK postcode (docs/reference/API-FACTS.md §10.1), e.g. `BN1 1AA`, `sw1a1aa`. */
export function isValidUkPostcode(postcode: string): boolean {
  return UK_POSTCODE.test(postcode.trim());
}

/** The pattern of a full UK postcode, for the OpenAPI document. */
export const UK_POSTCODE_PATTERN = UK_POSTCODE.source;

const FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** graduation_year (docs/reference/API-FACTS.md §11.4): a year, or a real `YYYY-MM-DD` date's; null when blank, else `'invalid'`. */
export function parseGraduationYear(value: unknown): number | null | 'invalid' {
  if (isBlank(value)) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : 'invalid';
  if (typeof value !== 'string') return 'invalid';
  const s = value.trim();
  if (FULL_DATE.test(s)) {
    const date = parseIsoDate(s);
    return date === null ? 'invalid' : Number(date.slice(0, 4));
  }
  if (/^\d{1,9}$/.test(s)) return Number(s);
  return 'invalid';
}
