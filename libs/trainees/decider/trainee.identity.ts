import { emailKey, firstNamesKey, lastNameKey } from './trainee.duplicates';

/**
 * The rule by which a row of a provider's file is taken to be a given person's (docs/DESIGN.md
 * "Personal data", "Erasure"): an erasure purges every upload holding a row of the erased trainee.
 * The net is wide on purpose: an upload wrongly kept holds a person's row, one wrongly purged costs
 * the provider only its copy of a file. A row is the person's when it shares one *mark* with the
 * person's values:
 *
 * - last name (`last_name` or `previous_last_name`) and date of birth, or first names and last
 *   name, or first names and date of birth (so a row whose error was in one of the three still
 *   matches);
 * - or the same non-empty `email`, `trn`, `provider_trainee_id`, `ni_number`, `statsagency_id`,
 *   `application_id` or `trainee_id` (a recommendations file names the trainee).
 *
 * Names are compared as the duplicate rule compares them (`lastNameKey`, `firstNamesKey`: case,
 * surrounding and repeated white space ignored; first names by their letters and digits), an email
 * ignoring case, identifiers ignoring case and white space, a date of birth as `YYYY-MM-DD` or
 * `DD/MM/YYYY`. A person's values are every value its stream ever held, so a changed name still
 * matches the rows written before.
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

/**
 * The marks of a person's values (see the top of this file): strings that hold the values, to be
 * hashed before they are kept. A row and a person are the same person when their marks meet.
 */
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
