import type { ApiVersion } from '@app/trainees/record';
import { contractFor, openApiSchemas, type JsonSchema } from '@app/trainees/contract';
import { csvText } from '@app/uploads/csv';
import { addTraineeColumns } from '@app/uploads/write';

/** As `GET /api/{version}/reference-data` serves them. */
type ReferenceLists = Record<string, { metadata: { description?: string }; entries: { code: string; display_name: string }[] }>;

/** A trainee's field, a placement's URN, a disability, a degree's field. */
function propertyOf(column: string, schemas: Record<string, JsonSchema>): JsonSchema | null {
  const props = (name: string) =>
    ((schemas[name] as { properties?: Record<string, JsonSchema> }).properties ?? {}) as Record<string, JsonSchema>;
  if (/^placement_\d+_urn$/.test(column)) return props('PlacementInput').urn ?? null;
  if (/^disability\d+$/.test(column)) return (props('TraineeInput').disabilities as { items?: JsonSchema } | undefined)?.items ?? null;
  if (column.startsWith('degree_')) return props('DegreeInput')[column.slice('degree_'.length)] ?? null;
  return props('TraineeInput')[column] ?? null;
}

/** The list of its name, or its name without a number or `degree_`, or its kind's. */
function listOf(column: string, lists: ReferenceLists): string | null {
  const bare = column.replace(/_?\d+$/, '').replace(/^degree_/, '');
  const kinds: Record<string, string> = {
    additional_training_initiative: 'training_initiative',
    iqts_country: 'country',
    country: 'country',
  };
  for (const name of [column, bare, `degree_${bare}`, kinds[bare] ?? '']) if (name && lists[name]) return name;
  return null;
}

/** Its type, date or email format, most characters, or "a code". */
function formatOf(schema: JsonSchema | null, coded: boolean): string {
  if (coded) return 'A code from the list';
  const s = (schema ?? {}) as { type?: string | string[]; format?: string; maxLength?: number; oneOf?: { format?: string }[] };
  if (s.format === 'date' || s.oneOf?.some((o) => o.format === 'date')) return 'A date, YYYY-MM-DD';
  if (s.format === 'email') return 'An email address';
  const types = ([] as string[]).concat(s.type ?? []);
  // Free text takes a number too (as its decimal text): still text.
  if (types.includes('string') && s.maxLength !== undefined) return `Text, at most ${s.maxLength} characters`;
  if (types.includes('integer') || types.includes('number')) return 'A number';
  if (types.includes('boolean')) return 'true or false';
  return s.maxLength !== undefined ? `Text, at most ${s.maxLength} characters` : 'Text';
}

/** `column`, `meaning` (the served document's description), `format`, `codes` (`code: name`, one a line), by `csvText`. */
export function columnGuideCsv(version: ApiVersion): string {
  const schemas = openApiSchemas(version);
  const lists = (contractFor(version).referenceData ?? {}) as unknown as ReferenceLists;
  const rows = addTraineeColumns(version).map((column) => {
    const schema = propertyOf(column, schemas);
    const list = listOf(column, lists);
    const description = (schema as { description?: string } | null)?.description ?? lists[list ?? '']?.metadata.description ?? '';
    const codes = list ? lists[list].entries.map((e) => `${e.code}: ${e.display_name}`).join('\n') : '';
    return [column, description, formatOf(schema, list !== null), codes];
  });
  return csvText([['column', 'meaning', 'format', 'codes'], ...rows]);
}
