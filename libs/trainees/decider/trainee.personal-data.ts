import { DEGREE_RECORD, LIFECYCLE_PATHS, TRAINEE_DETAILS_NAMES, TRAINEE_RECORD } from '@app/trainees/record';
import { LIFECYCLE_EVENTS, TRAINEE_STREAM_PREFIX, type TraineeEventType } from './trainee.events';

/** Where each event type keeps a field's stored value: a key of its data, or `<key>.<key>`. */
type Places = Partial<Record<TraineeEventType, string>>;

const STORED: ReadonlySet<string> = new Set(TRAINEE_DETAILS_NAMES);

/** A stored detail: in a registration's `details` and an update's `changes`. */
const detail = (key: string): Places => ({ TraineeRegistered: `details.${key}`, TraineeUpdated: `changes.${key}` });

/** Personal fields kept elsewhere than a stored member or lifecycle record of their name: the `disabilityN` map, the TRN's event. */
const PLACES_BESIDE_THE_DETAILS: Readonly<Record<string, Places>> = {
  disability1: detail('disabilities'),
  disability2: detail('disabilities'),
  statsagency_disabilities: detail('disabilities'),
  trn: { TrnIssued: 'trn' },
};

/** Where the event of the lifecycle action that records `name` keeps it; undefined for any other field. */
function lifecyclePlaces(name: string): Places | undefined {
  const kept = LIFECYCLE_PATHS[name];
  return kept && { [LIFECYCLE_EVENTS[kept.body]]: kept.path };
}

/** Where the events store each field the trainee table flags `personal` (docs/DESIGN.md "Personal data"); a spec holds it to the flags. */
export const PERSONAL_TRAINEE_FIELD_PLACES: Readonly<Record<string, Places>> = Object.fromEntries(
  personalFieldsOf(TRAINEE_RECORD).flatMap((name) => {
    const places = PLACES_BESIDE_THE_DETAILS[name] ?? lifecyclePlaces(name) ?? (STORED.has(name) ? detail(name) : undefined);
    return places ? [[name, places]] : [];
  }),
);

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

/** What of a trainee's events is sealed with its data key: per event type, its personal values' places (docs/DESIGN.md "Personal data"). */
export const TRAINEE_PERSONAL_DATA = {
  streamPrefix: TRAINEE_STREAM_PREFIX,
  pathsOf: (type: string): readonly string[] => SEALED_PLACES.get(type) ?? [],
} as const;

/** The flagged rows of the trainee and degree tables, for the spec that holds the places to them. */
export const FLAGGED_PERSONAL_FIELDS = { trainee: personalFieldsOf(TRAINEE_RECORD), degree: personalFieldsOf(DEGREE_RECORD) };
