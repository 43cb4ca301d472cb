import { DEGREE_RECORD, TRAINEE_RECORD } from '@app/trainees/record';
import { TRAINEE_STREAM_PREFIX, type TraineeEventType } from './trainee.events';

/** Where each event type keeps a field's stored value: a key of its data, or `<key>.<key>`. */
type Places = Partial<Record<TraineeEventType, string>>;

/** A stored detail: in a registration's `details` and an update's `changes`. */
const detail = (key: string): Places => ({ TraineeRegistered: `details.${key}`, TraineeUpdated: `changes.${key}` });

/**
 * Where the trainee's events store each field the trainee table flags `personal`
 * (libs/trainees/record/trainee.record.ts; docs/DESIGN.md "Personal data"), by field name. The
 * `disabilityN` fields are one stored map, `disabilities`. A spec checks that these names are
 * exactly the flagged ones.
 */
export const PERSONAL_TRAINEE_FIELD_PLACES: Readonly<Record<string, Places>> = {
  provider_trainee_id: detail('provider_trainee_id'),
  first_names: detail('first_names'),
  middle_names: detail('middle_names'),
  last_name: detail('last_name'),
  previous_last_name: detail('previous_last_name'),
  date_of_birth: detail('date_of_birth'),
  email: detail('email'),
  sex: detail('sex'),
  diversity_disclosure: detail('diversity_disclosure'),
  ethnic_group: detail('ethnic_group'),
  ethnic_background: detail('ethnic_background'),
  additional_ethnic_background: detail('additional_ethnic_background'),
  ethnicity: detail('ethnicity'),
  disability_disclosure: detail('disability_disclosure'),
  disability1: detail('disabilities'),
  disability2: detail('disabilities'),
  statsagency_disabilities: detail('disabilities'),
  nationality: detail('nationality'),
  ni_number: detail('ni_number'),
  statsagency_id: detail('statsagency_id'),
  application_id: detail('application_id'),
  trn: { TrnIssued: 'trn' },
  defer_reason: { TraineeDeferred: 'defer_reason' },
  withdrawal_another_reason: { TraineeWithdrawn: 'withdrawal.another_reason' },
  withdrawal_safeguarding_concern_reasons: { TraineeWithdrawn: 'withdrawal.safeguarding_concern_reasons' },
};

/** As {@link PERSONAL_TRAINEE_FIELD_PLACES}, for the fields the degree table flags `personal`. */
export const PERSONAL_DEGREE_FIELD_PLACES: Readonly<Record<string, Places>> = {
  other_grade: { DegreeAdded: 'degree.other_grade', DegreeUpdated: 'degree.other_grade' },
};

/** The names of a table's rows flagged `personal`. */
export function personalFieldsOf(table: ReadonlyArray<{ name: string; personal?: true }>): string[] {
  return [...new Set(table.filter((r) => r.personal).map((r) => r.name))];
}

function sealedPlaces(): Map<string, string[]> {
  const byType = new Map<string, string[]>();
  for (const places of [...Object.values(PERSONAL_TRAINEE_FIELD_PLACES), ...Object.values(PERSONAL_DEGREE_FIELD_PLACES)]) {
    for (const [type, path] of Object.entries(places)) {
      const paths = byType.get(type) ?? [];
      if (!paths.includes(path)) paths.push(path);
      byType.set(type, paths);
    }
  }
  return byType;
}

const SEALED_PLACES = sealedPlaces();

/**
 * What of a trainee's events is sealed with its data key (docs/DESIGN.md "Personal data"): the
 * streams `trainee-<trainee_id>`, and per event type the places of its personal values (empty for a
 * type that holds none). Types, times, codes that identify no one and ids stay in the clear.
 */
export const TRAINEE_PERSONAL_DATA = {
  streamPrefix: TRAINEE_STREAM_PREFIX,
  pathsOf: (type: string): readonly string[] => SEALED_PLACES.get(type) ?? [],
} as const;

/** The flagged rows of the trainee and degree tables, for the spec that holds the places to them. */
export const FLAGGED_PERSONAL_FIELDS = { trainee: personalFieldsOf(TRAINEE_RECORD), degree: personalFieldsOf(DEGREE_RECORD) };
