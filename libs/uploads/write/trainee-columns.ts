/**
 * An add-trainees file's columns per version: the create body's fields by API name in table order, nested items flattened as the real
 * service's bulk add does (`disability1…9`, `placement_N_urn`, `degree_<field>`). One list gives the template and a row's reading.
 */
import { DEGREE_RECORD, TRAINEE_RECORD, inputKindOf, versionFieldName, type ApiVersion, type FieldRow } from '@app/trainees/record';

const TRAINEE_ROWS: readonly FieldRow<never>[] = TRAINEE_RECORD as readonly FieldRow<never>[];
const DEGREE_ROWS: readonly FieldRow<never>[] = DEGREE_RECORD as readonly FieldRow<never>[];

/** As the real service's template. */
export const ROW_DISABILITIES = 9;
export const ROW_PLACEMENTS = 3;

const DEGREE_PREFIX = 'degree_';
const PLACEMENT_COLUMN = /^placement_(\d)_urn$/;

/** Every create input but the nested items. */
function flatFields(version: ApiVersion): string[] {
  return TRAINEE_ROWS.flatMap((row) => {
    if (!row.input || inputKindOf(row.input, version).kind === 'items') return [];
    const name = versionFieldName(row.name, version);
    return name === null ? [] : [name];
  });
}

function degreeFields(version: ApiVersion): string[] {
  return DEGREE_ROWS.flatMap((row) => {
    const name = row.input ? versionFieldName(row.name, version) : null;
    return name === null ? [] : [name];
  });
}

export function addTraineeColumns(version: ApiVersion): string[] {
  return [
    ...flatFields(version),
    ...Array.from({ length: ROW_DISABILITIES }, (_, i) => `disability${i + 1}`),
    ...Array.from({ length: ROW_PLACEMENTS }, (_, i) => `placement_${i + 1}_urn`),
    ...degreeFields(version).map((f) => `${DEGREE_PREFIX}${f}`),
  ];
}

/** A blank cell is no value; each placement URN a "Placement N"; the degree columns one degree when any is filled. Values stay text. */
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

/** The inverse of {@link createBodyOf}, as a provider's system filling the template would write it; nulls blank. */
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
 * The column a 422 message is about: the column its first word names, `degree_<field>`, a placement's first filled URN column for
 * `placements_attributes …`; null for the row as a whole (a duplicate).
 */
export function columnOfMessage(message: string, columns: readonly string[], values: Readonly<Record<string, string>>): string | null {
  const first = /^\w+/.exec(message)?.[0] ?? '';
  if (columns.includes(first)) return first;
  if (first === 'placements_attributes') return columns.find((c) => PLACEMENT_COLUMN.test(c) && values[c]) ?? null;
  return columns.includes(`${DEGREE_PREFIX}${first}`) ? `${DEGREE_PREFIX}${first}` : null;
}
