import { emailKey, firstNamesKey, lastNameKey } from './trainee.duplicates';

/**
 * Whether a row of a provider's file is a given person's, for an erasure's purge of uploads (docs/DESIGN.md "Erasure"). The net is
 * wide on purpose: an upload wrongly kept holds a person's row; one wrongly purged costs the provider a copy of a file. A row is the
 * person's when it shares one mark with any value the person's stream ever held: two of last name (or previous), first names and
 * date of birth, so one mistyped still matches; or one identifier (email, TRN, `trainee_id`, …). Names compare as the duplicate rule's.
 */

/** The fields whose values make a person's marks, by their canonical (and template column) names. */
export const IDENTIFYING_FIELDS = [
  'trainee_id',
  'first_names',
  'last_name',
  'previous_last_name',
  'date_of_birth',
  'email',
  'trn',
  'provider_trainee_id',
  'ni_number',
  'statsagency_id',
  'application_id',
] as const;
export type IdentifyingField = (typeof IDENTIFYING_FIELDS)[number];

/** A person's values by field: one each for a row, every value its history held for a trainee. */
export type IdentifyingValues = Partial<Record<IdentifyingField, readonly string[]>>;

/** Identifiers matched on their own: ignoring case and white space. */
const IDENTIFIERS: readonly IdentifyingField[] = [
  'trn',
  'provider_trainee_id',
  'ni_number',
  'statsagency_id',
  'application_id',
  'trainee_id',
];

/** A date of birth as `YYYY-MM-DD` (also read from `DD/MM/YYYY`, `D.M.YYYY`, `D-M-YYYY`); '' for none. */
function dateKey(value: string): string {
  const text = value.trim();
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  return dmy ? `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}` : text;
}

/** An identifier ignoring case and white space. */
function identifierKey(value: string): string {
  return value.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
}

/** The distinct non-empty keys of `values` by `key`. */
function keysOf(values: readonly string[] | undefined, key: (v: string) => string): string[] {
  return [...new Set((values ?? []).map(key).filter((k) => k !== ''))];
}

/** The marks of a person's values: they hold the values, so hash them before keeping them. */
export function identityMarks(values: IdentifyingValues): Set<string> {
  const marks = new Set<string>();
  const last = keysOf([...(values.last_name ?? []), ...(values.previous_last_name ?? [])], lastNameKey);
  const first = keysOf(values.first_names, firstNamesKey);
  const born = keysOf(values.date_of_birth, dateKey);
  for (const l of last) for (const b of born) marks.add(`last+born\u0000${l}\u0000${b}`);
  for (const f of first) for (const l of last) marks.add(`first+last\u0000${f}\u0000${l}`);
  for (const f of first) for (const b of born) marks.add(`first+born\u0000${f}\u0000${b}`);
  for (const e of keysOf(values.email, emailKey)) marks.add(`email\u0000${e}`);
  for (const field of IDENTIFIERS) for (const v of keysOf(values[field], identifierKey)) marks.add(`${field}\u0000${v}`);
  return marks;
}
