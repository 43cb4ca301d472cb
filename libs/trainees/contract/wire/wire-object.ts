/**
 * A body's object as wire fields, made into a `class-validator` DTO class and a checker handing the decider typed fields and problems
 * (docs/DESIGN.md ruling 4). Own keys only, so `__proto__` is plain data; unknown keys ignored (docs/reference/API-FACTS.md §5.3).
 * No `class-transformer`: the class has no transforms, and its copy of every value would cost a fifth of a create's checks.
 */
import { validateSync } from 'class-validator';
import type { InputProblem, MessagePath } from '@app/trainees/decider';
import { NonScalar, isBlank } from './constraints';
import { getKey, hasKey, isJsonObject } from './values';

/** A JSON Schema (OpenAPI 3.1) object. */
export type JsonSchema = Record<string, unknown>;

export interface WireField {
  /** The key on the wire in this version (also the label of its messages). */
  wire: string;
  /** The name in the typed fields the decider receives. */
  canonical: string;
  checks: readonly PropertyDecorator[];
  /** The typed value of a non-blank value that passed every check. */
  convert(value: unknown): unknown;
  /** Where problems of this field are reported (default `[canonical]`). */
  path?: MessagePath;
  /** How the value reaches the checks when not {@link wrap}ped (an array of strings kept an array, say). */
  prepare?(value: unknown): unknown;
  /** Nested items: each checked with this wire object (a non-object as `{}`). */
  items?: WireObject<unknown>;
  schema: JsonSchema;
  /** Required on the wire (OpenAPI `required`). */
  required?: boolean;
}

/** What every wire field has, whatever its kind: its wire and canonical names and whether a create needs it. */
export type FieldBase = Pick<WireField, 'wire' | 'canonical' | 'required'>;

/** A scalar as it is; a composite value (array or object) as a {@link NonScalar}. */
export function wrap(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? new NonScalar(value) : value;
}

/** A wire value as a problem's detail quotes it: text as sent, a number or boolean as its JSON, a composite value not at all. */
function valueText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? JSON.stringify(value) : undefined;
}

/** The outcome of checking one object: typed fields (a field that failed is left out) and problems. */
export interface WireCheck<F> {
  fields: F;
  problems: InputProblem[];
}

/** A wire object: its fields, its DTO class and its checker; `name` names the class and the OpenAPI schema (`TraineeInput`). */
export class WireObject<F> {
  readonly dto: new () => object;
  private readonly byWire: ReadonlyMap<string, WireField>;

  constructor(
    readonly name: string,
    readonly fields: readonly WireField[],
    /** Keys whose values are kept as sent and handled by {@link extra} (such as `disabilityN`). */
    private readonly extra?: {
      matches(key: string): boolean;
      /** The typed value of the key's value, or undefined after adding a problem. */
      check(key: string, value: unknown, problems: InputProblem[], at: MessagePath): unknown;
      into: string;
      /** Most such keys in one object; more is the one problem {@link tooManyKeys} and none is read. */
      maxKeys: number;
      tooManyKeys: string;
    },
  ) {
    const dto = { [name]: class {} }[name];
    for (const field of fields) for (const decorate of field.checks) decorate(dto.prototype, field.wire);
    this.dto = dto;
    this.byWire = new Map(fields.map((f) => [f.wire, f]));
  }

  /** True when `data` holds at least one key this object reads. */
  readsAnyKeyOf(data: Record<string, unknown>): boolean {
    return Object.keys(data).some((k) => this.byWire.has(k) || this.extra?.matches(k) === true);
  }

  /** Checks any parsed JSON value (a non-object counts as `{}`), problems under `at`; never throws. */
  check(data: unknown, at: MessagePath = []): WireCheck<F> {
    const source = isJsonObject(data) ? data : {};
    const plain: Record<string, unknown> = {};
    for (const field of this.fields) {
      if (!hasKey(source, field.wire)) continue;
      const value = getKey(source, field.wire);
      plain[field.wire] = field.prepare ? field.prepare(value) : wrap(value);
    }
    const instance = Object.assign(new this.dto(), plain);
    const errors = validateSync(instance, { forbidUnknownValues: false, validationError: { target: false, value: false } });
    const problems: InputProblem[] = [];
    const failed = new Set<string>();
    for (const error of errors) {
      const field = this.byWire.get(error.property);
      if (!field) continue;
      failed.add(field.wire);
      const value = valueText(plain[field.wire]);
      for (const [kind, message] of Object.entries(error.constraints ?? {}))
        problems.push({
          path: [...at, ...(field.path ?? [field.canonical])],
          message,
          detail: { kind, ...(value === undefined ? {} : { value }) },
        });
    }

    const fields: Record<string, unknown> = {};
    for (const field of this.fields) {
      if (!hasKey(plain, field.wire) || failed.has(field.wire)) continue;
      const value = plain[field.wire];
      if (field.items) {
        fields[field.canonical] =
          value === null ? null : isBlank(value) ? '' : this.checkItems(field, getKey(source, field.wire), at, problems);
        continue;
      }
      fields[field.canonical] = value === null ? null : isBlank(value) ? '' : field.convert(value);
    }
    if (this.extra) {
      const collected: Record<string, unknown> = {};
      const keys = Object.keys(source).filter((key) => this.extra!.matches(key));
      if (keys.length > this.extra.maxKeys) {
        problems.push({ path: [...at, this.extra.into], message: this.extra.tooManyKeys });
        keys.length = 0;
      }
      for (const key of keys) {
        const value = this.extra.check(key, getKey(source, key), problems, at);
        if (value !== undefined) collected[key] = value;
      }
      if (Object.keys(collected).length > 0) fields[this.extra.into] = collected;
    }
    return { fields: fields as F, problems };
  }

  private checkItems(field: WireField, value: unknown, at: MessagePath, problems: InputProblem[]): unknown[] {
    const items = value as unknown[];
    const base = field.path ?? [`${field.canonical}[]`];
    return items.map((item, i) => {
      const result = field.items!.check(item, [...at, ...base, i]);
      problems.push(...result.problems);
      return result.fields;
    });
  }
}
