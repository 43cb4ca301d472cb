/**
 * Each version's trainee, placement and degree answers and their response schemas, from one table of output fields
 * (docs/spec/trainee-records-api.md "Trainee object", "Placement object", "Degree object"; docs/DESIGN.md rulings 3, 6, 10).
 */
import { API_VERSIONS, type Degree, type Placement, type Trainee, type ApiVersion } from '@app/trainees/record';

import { DEGREE_FIELDS, fieldsOf, PLACEMENT_FIELDS, TRAINEE_FIELDS, type JsonSchema, type OutputField } from './output-fields';

/** `disability` followed by digits: every such key of the record is answered (docs/reference/API-FACTS.md §6.7). */
const DISABILITY_OUTPUT = '^disability\\d+$';

/** The `disabilityN` keys answered as stored strings: all but those listed as properties (which may be null). */
function otherDisabilityKeys(listed: readonly string[]): string {
  const own = listed.filter((name) => new RegExp(DISABILITY_OUTPUT).test(name)).map((name) => name.slice('disability'.length));
  return own.length === 0 ? DISABILITY_OUTPUT : `^disability(?!(?:${own.join('|')})$)\\d+$`;
}

/** The answers of one API version: serializers and their schemas. */
export class VersionOutput {
  private readonly trainee: readonly (readonly [string, OutputField<Trainee>])[];
  private readonly placement: readonly (readonly [string, OutputField<Placement>])[];
  private readonly degree: readonly (readonly [string, OutputField<Degree>])[];
  /** The trainee fields as `"name":` JSON key prefixes, for {@link traineeItemJson}. */
  private readonly traineeKeys: readonly (readonly [string, string, OutputField<Trainee>])[];

  constructor(
    readonly version: ApiVersion,
    /** Whether the create-placement answer carries `school_id` (docs/DESIGN.md ruling 10). */
    private readonly placementCreatedSchoolId: boolean,
  ) {
    this.trainee = fieldsOf(TRAINEE_FIELDS, version);
    this.placement = fieldsOf(PLACEMENT_FIELDS, version);
    this.degree = fieldsOf(DEGREE_FIELDS, version);
    this.traineeKeys = this.trainee.map(([name, field]) => [name, `${JSON.stringify(name)}:`, field] as const);
  }

  /** `JSON.stringify(serializeTrainee(t, {nested: false}))` at about half the cost (docs/DESIGN.md "Answers stored as bytes"). */
  traineeItemJson(t: Trainee): string {
    let json = '{';
    const emitted: string[] = [];
    const add = (key: string, value: unknown) => {
      const text = JSON.stringify(value);
      if (text === undefined) return;
      json += (json.length > 1 ? ',' : '') + key + text;
    };
    for (const [name, key, field] of this.traineeKeys) {
      emitted.push(name);
      add(key, field.value(t));
      if (name !== 'disability2') continue;
      // As Object.assign after disability2 in serializeTrainee: keys already answered keep their place.
      for (const [k, v] of Object.entries(t.details.disabilities)) if (!emitted.includes(k)) add(`${JSON.stringify(k)}:`, v);
    }
    return `${json}}`;
  }

  /** Every field of the version (null when empty), the `disabilityN` keys, and with `nested` placements and degrees (ruling 3). */
  serializeTrainee(t: Trainee, opts: { nested: boolean }): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, field] of this.trainee) {
      out[name] = field.value(t);
      if (name === 'disability2') Object.assign(out, t.details.disabilities);
    }
    if (opts.nested) {
      out.placements = t.placements.map((p) => this.serializePlacement(p));
      out.degrees = t.degrees.map((d) => this.serializeDegree(d));
    }
    return out;
  }

  /** A placement's answer; `created` adds `school_id` where the version answers it on create (ruling 10). */
  serializePlacement(p: Placement, opts: { created?: boolean } = {}): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, field] of this.placement) out[name] = field.value(p);
    if (opts.created && this.placementCreatedSchoolId) out.school_id = p.school_id ?? null;
    return out;
  }

  /** A degree's answer (docs/reference/API-FACTS.md §11.6). */
  serializeDegree(d: Degree): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, field] of this.degree) out[name] = field.value(d);
    return out;
  }

  /** JSON Schema of a trainee answer (`nested`: with placements and degrees), every field required. */
  traineeSchema(opts: { nested: boolean }): JsonSchema {
    const properties: Record<string, JsonSchema> = Object.fromEntries(this.trainee.map(([name, f]) => [name, f.schema]));
    const required = this.trainee.map(([name]) => name);
    if (opts.nested) {
      properties.placements = { type: 'array', items: { $ref: '#/components/schemas/Placement' } };
      properties.degrees = { type: 'array', items: { $ref: '#/components/schemas/Degree' } };
      required.push('placements', 'degrees');
    }
    return {
      type: 'object',
      description: opts.nested
        ? 'A trainee with its placements and degrees (docs/spec/trainee-records-api.md "Trainee object").'
        : 'A trainee as a list item: without placements and degrees.',
      properties,
      patternProperties: { [otherDisabilityKeys(required)]: { type: 'string' } },
      required,
      additionalProperties: false,
    };
  }

  /** JSON Schema of a placement answer (`created`: the create answer, with `school_id` where the version has it). */
  placementSchema(opts: { created?: boolean } = {}): JsonSchema {
    const properties: Record<string, JsonSchema> = Object.fromEntries(this.placement.map(([name, f]) => [name, f.schema]));
    const required = this.placement.map(([name]) => name);
    if (opts.created && this.placementCreatedSchoolId) {
      properties.school_id = { type: ['integer', 'null'], description: "The linked school's id (its URN), or null." };
      required.push('school_id');
    }
    return { type: 'object', properties, required, additionalProperties: false };
  }

  /** JSON Schema of a degree answer. */
  degreeSchema(): JsonSchema {
    return {
      type: 'object',
      properties: Object.fromEntries(this.degree.map(([name, f]) => [name, f.schema])),
      required: this.degree.map(([name]) => name),
      additionalProperties: false,
    };
  }
}

/** Whether a version's create-placement answer carries `school_id` (docs/DESIGN.md ruling 10). */
const PLACEMENT_CREATED_SCHOOL_ID: Readonly<Record<ApiVersion, boolean>> = { 'v2025.0': true, 'v2026.1': false };

const OUTPUTS = Object.fromEntries(API_VERSIONS.map((v) => [v, new VersionOutput(v, PLACEMENT_CREATED_SCHOOL_ID[v])])) as Record<
  ApiVersion,
  VersionOutput
>;

/** The answers of `version`: its serializers and their JSON Schemas. */
export function outputFor(version: ApiVersion): VersionOutput {
  return OUTPUTS[version];
}
