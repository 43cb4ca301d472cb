/**
 * The columns of an add-trainees file for an API version, and a row of such a file as that
 * version's create body. Each column is a field of the version's create body by its API name
 * (docs/spec/trainee-records-api.md "POST /trainees"), in the trainee table's order; the nested
 * items are flattened as the real service's bulk add does it: `disability1` … `disability9`, one
 * URN per placement (`placement_1_urn` … `placement_3_urn`, each placement named "Placement N"),
 * and one degree as `degree_<field>`. One list gives both the template and the reading of a row,
 * so neither can drift from the other.
 */
import { DEGREE_RECORD, TRAINEE_RECORD, inputKindOf, versionFieldName, type ApiVersion, type FieldRow } from '@app/trainees/record';

const TRAINEE_ROWS: readonly FieldRow<never>[] = TRAINEE_RECORD as readonly FieldRow<never>[];
const DEGREE_ROWS: readonly FieldRow<never>[] = DEGREE_RECORD as readonly FieldRow<never>[];

/** Disabilities a row may name (`disability1` … `disability9`), as the real service's template. */
export const ROW_DISABILITIES = 9;
/** Placements a row may name, by URN. */
export const ROW_PLACEMENTS = 3;

const DEGREE_PREFIX = 'degree_';
const PLACEMENT_COLUMN = /^placement_(\d)_urn$/;

/** The version's trainee fields a row sends as they are: every create input but the nested items. */
function flatFields(version: ApiVersion): string[] {
  return TRAINEE_ROWS.flatMap((row) => {
    if (!row.input || inputKindOf(row.input, version).kind === 'items') return [];
    const name = versionFieldName(row.name, version);
    return name === null ? [] : [name];
  });
}

/** The degree fields a row sends, by the version's names. */
function degreeFields(version: ApiVersion): string[] {
  return DEGREE_ROWS.flatMap((row) => {
    const name = row.input ? versionFieldName(row.name, version) : null;
    return name === null ? [] : [name];
  });
}

/** The template's columns for `version`, in order: the trainee's fields, disabilities, placements, the degree. */
export function addTraineeColumns(version: ApiVersion): string[] {
  return [
    ...flatFields(version),
    ...Array.from({ length: ROW_DISABILITIES }, (_, i) => `disability${i + 1}`),
    ...Array.from({ length: ROW_PLACEMENTS }, (_, i) => `placement_${i + 1}_urn`),
    ...degreeFields(version).map((f) => `${DEGREE_PREFIX}${f}`),
  ];
}

/**
 * The create body's `data` for one row (`values` by template column, as read): a blank cell is no
 * value; each non-blank placement URN a placement "Placement N"; the degree columns one degree when
 * any is filled. Values stay text: the version's wire checks read them as they read a JSON string.
 */
export function createBodyOf(values: Readonly<Record<string, string>>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const degree: Record<string, string> = {};
  const placements: { name: string; urn: string }[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (value === '') continue;
    const placement = PLACEMENT_COLUMN.exec(column);
    if (placement) placements.push({ name: `Placement ${placement[1]}`, urn: value });
    else if (column.startsWith(DEGREE_PREFIX)) degree[column.slice(DEGREE_PREFIX.length)] = value;
    else data[column] = value;
  }
  if (placements.length > 0) data.placements_attributes = placements;
  if (Object.keys(degree).length > 0) data.degrees_attributes = [degree];
  return data;
}

/**
 * A create body's `data` as a template row (values by column): the inverse of {@link createBodyOf},
 * as a provider's system writing its records into the template would (each placement's URN in
 * `placement_N_urn`, the first degree's fields as `degree_<field>`, other values as text; nulls blank).
 */
export function templateRowOf(data: Readonly<Record<string, unknown>>): Record<string, string> {
  const row: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'placements_attributes') {
      (value as { urn: string }[]).forEach((p, i) => (row[`placement_${i + 1}_urn`] = p.urn));
    } else if (key === 'degrees_attributes') {
      for (const [field, v] of Object.entries((value as Record<string, unknown>[])[0] ?? {})) row[`${DEGREE_PREFIX}${field}`] = String(v);
    } else if (value !== null && value !== undefined) {
      row[key] = String(value);
    }
  }
  return row;
}

/**
 * The column a message of the API's 422 is about (`values`: the row's, by column): the template
 * column its first word names; a degree's field as `degree_<field>`; a placement's (the messages
 * read `placements_attributes <field> …`) as the row's first placement column with a value; null
 * when it names none (a message about the row as a whole, such as a duplicate).
 */
export function columnOfMessage(message: string, columns: readonly string[], values: Readonly<Record<string, string>>): string | null {
  const first = /^\w+/.exec(message)?.[0] ?? '';
  if (columns.includes(first)) return first;
  if (first === 'placements_attributes') return columns.find((c) => PLACEMENT_COLUMN.test(c) && values[c]) ?? null;
  return columns.includes(`${DEGREE_PREFIX}${first}`) ? `${DEGREE_PREFIX}${first}` : null;
}
