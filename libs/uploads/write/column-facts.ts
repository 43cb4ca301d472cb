/**
 * What a person needs to fill in each column of an add-trainees file, made from the record tables' rows (their `person` words, kind,
 * `required` and code lists; docs/DESIGN.md "The record tables") and the version's code book: the column guide, the template's example
 * row and the uploads page's error messages all read these.
 */
import { acceptedTrainingRouteCodes, codesFor } from '@app/trainees/contract';
import type { UploadKind } from '@app/uploads/decider';
import {
  catalogueEntry,
  DEGREE_RECORD,
  LIFECYCLE_FIELDS,
  DISABILITY_WORDS,
  inputKindOf,
  PLACEMENT_RECORD,
  TRAINEE_RECORD,
  versionFieldName,
  type ApiVersion,
  type FieldInput,
  type FieldRow,
  type InputKind,
  type PersonWords,
  type RefListName,
} from '@app/trainees/record';
import { addTraineeColumns } from './trainee-columns';

/** One code of a coded column and what it means. */
export interface ColumnCode {
  code: string;
  meaning: string;
}

export interface ColumnFacts {
  /** The header. */
  column: string;
  /** The field's canonical name in its table (`date_of_birth`, `grade` of a degree, `urn` of a placement, `disabilities`). */
  field: string;
  /** "Date of birth", "Disability 3", "Placement 2 school URN". */
  label: string;
  /** "Required", "Optional", or when it is needed. */
  needed: string;
  /** What to type, in a person's words: "A date in the format YYYY-MM-DD". */
  format: string;
  /** The template's example row's value; null where that row leaves it blank. */
  example: string | null;
  /** A value of the format to quote in a message: the example, or one of the kind's. */
  sample: string;
  /** The codes to pick from, with their meanings; [] for a column that takes no code. */
  codes: ColumnCode[];
  /** The code list of `codes`, or null. */
  list: RefListName | null;
  /** The create checks refuse a value not in `list` (else they read it: a grade as none, an institution as "Other", a disability as is). */
  codeChecked: boolean;
  /** Most characters of a text column. */
  max: number | null;
  hint: string | null;
  /** What its input takes (the record table's kind): `date`, `code`, `text`… */
  kind: InputKind['kind'];
}

/** A format's words, a value of it when the row has no example, and the code list the kind names. */
function kindFacts(kind: InputKind): { format: string; sample: string; list: RefListName | null; max: number | null } {
  switch (kind.kind) {
    case 'text':
      return { format: `Text, up to ${kind.max} characters`, sample: '', list: null, max: kind.max };
    case 'string':
      return {
        format: kind.documents ? 'A code from the list' : `Text, up to ${kind.max} characters`,
        sample: '',
        list: kind.documents ?? null,
        max: kind.max,
      };
    case 'code':
    case 'later_code':
      return { format: 'A code from the list', sample: '', list: kind.list, max: null };
    case 'ni_number':
      return {
        format: 'A National Insurance number: 2 letters, 6 numbers, then A, B, C or D',
        sample: 'QQ 12 34 56 C',
        list: null,
        max: null,
      };
    case 'email':
      return { format: 'An email address', sample: 'name@example.com', list: null, max: 255 };
    case 'statsagency_id':
      return { format: 'Exactly 13 or 17 characters', sample: '0310261553101', list: null, max: null };
    case 'date':
    case 'lenient_date':
      return { format: 'A date in the format YYYY-MM-DD', sample: '2025-09-01', list: null, max: null };
    case 'course_year':
      return { format: kind.integer ? 'A whole number' : 'A number', sample: '1', list: null, max: null };
    case 'digits':
      return { format: `A whole number of up to ${kind.max} digits`, sample: '6916785', list: null, max: kind.max };
    case 'graduation_year':
      return { format: 'A year in the format YYYY', sample: '2003', list: null, max: null };
    case 'urn':
      return { format: 'A URN: 6 numbers', sample: '100001', list: null, max: null };
    case 'postcode':
      return { format: 'A full UK postcode', sample: 'BN1 1AA', list: null, max: null };
    case 'items':
      return { format: '', sample: '', list: null, max: null };
  }
}

/** The codes of `list` a write of `version` may send (training routes: those accepted on a write), with their meanings. */
export function columnCodes(list: RefListName, version: ApiVersion, field = ''): ColumnCode[] {
  const codes = field === 'training_route' ? acceptedTrainingRouteCodes(version) : codesFor(list, version);
  return codes.map((code) => ({ code, meaning: catalogueEntry(list, code)?.label ?? '' }));
}

/** The facts of one field's column: its header, its row's person words and input, `label` and `example` as given. */
function factsOf(
  column: string,
  field: string,
  words: PersonWords,
  input: Pick<FieldInput, 'kind' | 'required'>,
  version: ApiVersion,
  label = words.label,
  example = words.example,
): ColumnFacts {
  const kind = inputKindOf(input as FieldInput, version);
  const facts = kindFacts(kind);
  const list = words.codes ?? facts.list;
  const codes = list ? columnCodes(list, version, field) : [];
  return {
    column,
    field,
    label,
    needed: words.needed ?? (input.required ? 'Required' : 'Optional'),
    format: list ? 'A code from the list' : facts.format,
    example,
    sample: example ?? words.example ?? (facts.sample || (codes[0]?.code ?? '')),
    codes,
    list,
    codeChecked: list !== null && (kind.kind === 'code' || kind.kind === 'later_code') && field !== 'disabilities',
    max: facts.max,
    hint: words.hint ?? null,
    kind: kind.kind,
  };
}

type InputRow = FieldRow<never> & { input: FieldInput };

const withInput = (table: readonly FieldRow<never>[]): InputRow[] => table.filter((r): r is InputRow => r.input !== undefined);

const CACHE = new Map<ApiVersion, ColumnFacts[]>();

/** Every column of the add-trainees file of `version`, in template order. */
export function columnFacts(version: ApiVersion): readonly ColumnFacts[] {
  const cached = CACHE.get(version);
  if (cached) return cached;
  const byWire = new Map<string, ColumnFacts>();
  for (const row of withInput(TRAINEE_RECORD as readonly FieldRow<never>[])) {
    const wire = versionFieldName(row.name, version);
    if (wire !== null) byWire.set(wire, factsOf(wire, row.name, row.input.person, row.input, version));
  }
  for (const row of withInput(DEGREE_RECORD as readonly FieldRow<never>[])) {
    const wire = versionFieldName(row.name, version);
    if (wire !== null) byWire.set(`degree_${wire}`, factsOf(`degree_${wire}`, row.name, row.input.person, row.input, version));
  }
  const urn = withInput(PLACEMENT_RECORD as readonly FieldRow<never>[]).find((r) => r.name === 'urn')!;
  const disability = { kind: { kind: 'code', list: 'disability' } } as const;
  const facts = addTraineeColumns(version).map((column) => {
    const known = byWire.get(column);
    if (known) return known;
    const n = /\d+/.exec(column)?.[0] ?? '';
    if (column.startsWith('disability')) {
      return factsOf(
        column,
        'disabilities',
        DISABILITY_WORDS,
        disability,
        version,
        `${DISABILITY_WORDS.label} ${n}`,
        n === '1' ? DISABILITY_WORDS.example : null,
      );
    }
    const label = urn.input.person.label.replace(/^Placement/, `Placement ${n}`);
    return factsOf(column, 'urn', urn.input.person, urn.input, version, label, n === '1' ? urn.input.person.example : null);
  });
  CACHE.set(version, facts);
  return facts;
}

const ITEM_CACHE = new Map<string, ColumnFacts[]>();

/**
 * The facts of each field a placement or a degree takes in `version` (`column`: its name in the version, as the API's item bodies
 * name it), in table order: the labels and code lists a person reads a trainee's placements and degrees by.
 */
export function itemFacts(table: 'placements' | 'degrees', version: ApiVersion): readonly ColumnFacts[] {
  const key = `${table} ${version}`;
  const cached = ITEM_CACHE.get(key);
  if (cached) return cached;
  const rows = withInput((table === 'placements' ? PLACEMENT_RECORD : DEGREE_RECORD) as readonly FieldRow<never>[]);
  const facts = rows.flatMap((row) => {
    const wire = versionFieldName(row.name, version);
    return wire === null ? [] : [factsOf(wire, row.name, row.input.person, row.input, version)];
  });
  ITEM_CACHE.set(key, facts);
  return facts;
}

/** The facts of `column` in `version`'s file, or undefined for a column the file has not. */
export function columnFactsOf(version: ApiVersion, column: string): ColumnFacts | undefined {
  return columnFacts(version).find((f) => f.column === column);
}

/** The template's example row: a trainee that passes every check, by column (blank cells ''). */
export function exampleRow(version: ApiVersion): Record<string, string> {
  return Object.fromEntries(columnFacts(version).map((f) => [f.column, f.example ?? '']));
}

/** A column of the recommendations file that names the trainee: blank, or as the trainee's record has it. */
function matchingFacts(column: string, label: string): ColumnFacts {
  return {
    column,
    field: column,
    label,
    needed: 'Optional',
    format: 'As the trainee’s record has it, or blank',
    example: null,
    sample: '',
    codes: [],
    list: null,
    codeChecked: false,
    max: null,
    kind: 'text',
    hint: 'The template fills it in from the trainee’s record, so you can check the row is the trainee you mean.',
  };
}

const RECOMMEND_CACHE = new Map<ApiVersion, ColumnFacts[]>();

/**
 * Every column of the recommendations file of `version`, in template order (`RECOMMEND_COLUMNS`): the trainee's id, the columns that
 * name the trainee (their labels as in the add-trainees file), and the date, its example from the record tables' recommendation row.
 */
export function recommendColumnFacts(version: ApiVersion): readonly ColumnFacts[] {
  const cached = RECOMMEND_CACHE.get(version);
  if (cached) return cached;
  const label = (column: string) => columnFactsOf(version, column)?.label ?? column;
  const date = LIFECYCLE_FIELDS.recommendation.find((f) => f.key === 'qts_standards_met_date')!;
  const example = String(date.input.example ?? '2026-06-30');
  const facts: ColumnFacts[] = [
    {
      ...matchingFacts('trainee_id', 'Trainee ID'),
      needed: 'Required',
      format: 'The trainee’s ID in this service, as the template gives it',
      hint: 'It says which of your trainees the row recommends.',
    },
    matchingFacts('provider_trainee_id', label('provider_trainee_id')),
    matchingFacts('trn', 'TRN'),
    matchingFacts('first_names', label('first_names')),
    matchingFacts('last_name', label('last_name')),
    {
      ...matchingFacts('qts_standards_met_date', 'Date QTS or EYTS standards met'),
      needed: 'Required for each trainee you recommend; blank for a trainee you do not',
      format: 'A date in the format YYYY-MM-DD',
      example,
      sample: example,
      hint: 'The day the trainee met the standards: not in the future, not before their ITT start date.',
    },
  ];
  RECOMMEND_CACHE.set(version, facts);
  return facts;
}

/** The facts of `column` of a file of `kind` in `version`, or undefined for a column that file has not. */
export function uploadColumnFactsOf(kind: UploadKind, version: ApiVersion, column: string): ColumnFacts | undefined {
  return kind === 'add_trainees' ? columnFactsOf(version, column) : recommendColumnFacts(version).find((f) => f.column === column);
}
