/**
 * Realistic trainee create bodies for the benchmarks: the request example of each API version,
 * varied over the coded values of the reference data (routes, age ranges and course subjects
 * within the primary/secondary rules, sex, ethnicity, nationality, disabilities, study modes,
 * qualification aims, degree types, subjects, institutions and grades, placement schools) and over
 * names and dates. Every combination it produces passes the checks of a create body (`createBody`:
 * the version's wire checks, then the record rules); `selfCheck` proves it on a sample before a run.
 */
import { REFERENCE_LISTS, type School, API_VERSIONS, fieldLabel, type ApiVersion } from '@app/trainees/record';
import { acceptedTrainingRouteCodes, codesFor, lookupCode, traineeRulesFor } from '@app/trainees/contract';
import { createBody } from '@app/trainees/contract/testing/bodies';
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, MIDDLE_NAMES } from './generator-names';
import { Random } from './random';

const DAY_MS = 86_400_000;

/** Routes whose create rules the generator's bodies satisfy, per version (no early-years or iQTS routes). */
const ROUTES: Record<ApiVersion, readonly string[]> = {
  'v2025.0': ['02', '03', '09', '10', '11', '12', '14'],
  'v2026.1': ['03', '09', '10', '11', '12', '14', '16', '21'],
};
/** Relative frequency of each route above (school direct and HEI routes are the common ones). */
const ROUTE_WEIGHTS: Record<ApiVersion, readonly number[]> = {
  'v2025.0': [6, 4, 1, 2, 10, 2, 3],
  'v2026.1': [4, 1, 2, 10, 2, 3, 1, 1],
};
const PRIMARY_TEACHING = '100511';
const EARLY_YEARS_TEACHING = '100510';
const NOT_APPLICABLE_URNS = ['900000', '900010', '900020', '900030'];

/** What varies between the trainees of a data set, chosen by the caller (loader or HTTP scenario). */
export interface TraineeShape {
  /** Unique number of the trainee in the run: makes the email unique. */
  serial: number;
  version: ApiVersion;
  /** `YYYY-MM-DD`: ITT start (also trainee_start_date). */
  ittStart: string;
  /** Two-year (part-time) course rather than one year. */
  twoYear: boolean;
  placements: number;
  degrees: number;
  /** UKPRN of the provider (used in provider_trainee_id). */
  ukprn: string;
}

/**
 * Generates create bodies (`data` objects with the version's field names). Deterministic for a
 * seed. `schools` are the directory's schools: most placements name one of them by URN.
 */
export class TraineeGenerator {
  private readonly random: Random;
  private readonly lists: Record<ApiVersion, GeneratorLists>;

  /**
   * A generator over `schools` (may be empty), seeded with `seed`. With `uniqueFirstNames` every
   * body gets a second forename spelled from its serial, so no two bodies can ever be duplicates
   * of each other or of a loaded trainee (the HTTP create scenarios must never answer 409).
   */
  constructor(
    seed: number,
    private readonly schools: readonly School[],
    private readonly options: { uniqueFirstNames?: boolean } = {},
  ) {
    this.random = new Random(seed);
    this.lists = Object.fromEntries(API_VERSIONS.map((v) => [v, listsFor(v)])) as Record<ApiVersion, GeneratorLists>;
  }

  /** The generator's random source (the loader draws the history trainee's ids from it). */
  get rng(): Random {
    return this.random;
  }

  /** A valid `data` object of POST /trainees for `shape`. */
  traineeInput(shape: TraineeShape): Record<string, unknown> {
    const r = this.random;
    const v = shape.version;
    const lists = this.lists[v];
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const route = r.weighted(ROUTES[v], ROUTE_WEIGHTS[v]);
    const startMs = Date.parse(`${shape.ittStart}T00:00:00Z`);
    const age = r.int(21, 45);
    const dob = isoDate(startMs - age * 365.25 * DAY_MS - r.int(0, 364) * DAY_MS);
    const endMs =
      Date.parse(`${Number(shape.ittStart.slice(0, 4)) + (shape.twoYear ? 2 : 1)}${shape.ittStart.slice(4)}T00:00:00Z`) - DAY_MS;
    const primary = r.chance(0.4);
    const ageRange = r.pick(primary ? lists.primaryAgeRanges : lists.secondaryAgeRanges);
    const subjects = primary ? this.primarySubjects(v) : this.secondarySubjects(v);
    const email = `${asciiLocal(first)}.${asciiLocal(last)}.${shape.serial}@${r.pick(EMAIL_DOMAINS)}`;
    const ittAim = r.chance(0.8) ? '202' : '201';
    const names = subjectFieldNames(v);

    const data: Record<string, unknown> = {
      first_names: this.options.uniqueFirstNames ? `${first} ${serialName(shape.serial)}` : first,
      last_name: last,
      date_of_birth: dob,
      sex: r.weighted(['10', '11', '12', '96', '99'], [60, 36, 1, 2, 1]),
      email,
      training_route: route,
      itt_start_date: shape.ittStart,
      itt_end_date: isoDate(endMs),
      trainee_start_date: shape.ittStart,
      [names[0]]: subjects[0],
      study_mode: shape.twoYear ? r.pick(['31', '64']) : r.pick(['01', '01', '01', '02', '63']),
      nationality: r.chance(0.8) ? 'GB' : r.pick(lists.nationalities),
      itt_aim: ittAim,
      course_year: traineeRulesFor(v).courseYear === 'integer' ? Number(shape.ittStart.slice(0, 4)) : shape.ittStart.slice(0, 4),
      course_age_range: ageRange,
      fund_code: '2',
      funding_method: '6',
      statsagency_id: r.digits(13),
      ethnicity: r.pick(lists.ethnicities),
      provider_trainee_id: `${shape.ukprn.slice(-4)}/${shape.serial}/${r.int(1, 9).toString().padStart(2, '0')}`,
      application_id: r.int(1_000_000, 9_999_999),
      degrees_attributes: this.degrees(v, shape.degrees, Number(dob.slice(0, 4)), Number(shape.ittStart.slice(0, 4))),
      placements_attributes: Array.from({ length: shape.placements }, () => this.placement()),
    };
    if (subjects[1]) data[names[1]] = subjects[1];
    if (subjects[2]) data[names[2]] = subjects[2];
    if (ittAim === '202') data.itt_qualification_aim = r.pick(lists.qualificationAims);
    if (r.chance(0.5)) data.middle_names = r.pick(MIDDLE_NAMES);
    if (r.chance(0.1)) data.previous_last_name = r.pick(LAST_NAMES);
    const disabilities = r.weighted([0, 1, 2], [70, 22, 8]);
    const chosen = new Set<string>();
    while (chosen.size < disabilities) chosen.add(r.pick(lists.disabilities));
    [...chosen].forEach((code, i) => (data[`disability${i + 1}`] = code));
    if (route === '10') data.pg_apprenticeship_start_date = shape.ittStart;
    if (route === '03' || route === '10' || r.chance(0.1)) data.employing_school_urn = r.digits(6);
    const partner = r.weighted(['urn', 'ukprn', 'none'], [50, 20, 30]);
    if (partner === 'urn') data[fieldLabel('training_partner_urn', v)] = r.digits(6);
    if (partner === 'ukprn') data[fieldLabel('training_partner_ukprn', v)] = `1${r.digits(7)}`;
    return data;
  }

  private primarySubjects(v: ApiVersion): (string | null)[] {
    // v2025.0 rewrites subjects of a primary course itself (primary teaching first); v2026.1 wants it sent.
    const r = this.random;
    const extra = r.chance(0.3) ? r.pick(this.lists[v].secondarySubjects) : null;
    if (traineeRulesFor(v).primaryCourseSubject === 'require') return [PRIMARY_TEACHING, extra, null];
    return r.chance(0.5) ? [PRIMARY_TEACHING, extra, null] : [extra ?? r.pick(this.lists[v].secondarySubjects), null, null];
  }

  private secondarySubjects(v: ApiVersion): (string | null)[] {
    const r = this.random;
    const all = this.lists[v].secondarySubjects;
    const count = r.weighted([1, 2, 3], [60, 30, 10]);
    const chosen = new Set<string>();
    while (chosen.size < count) chosen.add(r.pick(all));
    const out: (string | null)[] = [...chosen];
    while (out.length < 3) out.push(null);
    return out;
  }

  private degrees(v: ApiVersion, count: number, birthYear: number, startYear: number): Record<string, unknown>[] {
    const r = this.random;
    const lists = this.lists[v];
    const out: Record<string, unknown>[] = [];
    const subjects = new Set<string>();
    for (let i = 0; i < count; i++) {
      let subject = r.pick(lists.degreeSubjects);
      while (subjects.has(subject)) subject = r.pick(lists.degreeSubjects);
      subjects.add(subject);
      const year = Math.min(startYear, birthYear + 21 + i * 2 + r.int(0, 2));
      if (r.chance(0.9)) {
        out.push({
          grade: r.pick(lists.degreeGrades),
          subject,
          institution: r.pick(lists.institutions),
          uk_degree: r.pick(lists.degreeTypes),
          graduation_year: r.chance(0.5) ? `${year}-06-01` : year,
        });
      } else {
        out.push({ non_uk_degree: r.pick(lists.degreeTypes), subject, country: r.pick(lists.nonUkCountries), graduation_year: year });
      }
    }
    return out;
  }

  private placement(): Record<string, unknown> {
    const r = this.random;
    const kind = r.weighted(['school', 'not-applicable', 'unknown'], this.schools.length > 0 ? [60, 25, 15] : [0, 60, 40]);
    if (kind === 'school') return { urn: r.pick(this.schools).urn };
    if (kind === 'not-applicable') return { urn: r.pick(NOT_APPLICABLE_URNS) };
    return { urn: `8${r.digits(5)}`, name: `${r.pick(LAST_NAMES)} ${r.pick(['Primary School', 'Academy', 'High School', 'College'])}` };
  }
}

interface GeneratorLists {
  primaryAgeRanges: string[];
  secondaryAgeRanges: string[];
  secondarySubjects: string[];
  nationalities: readonly string[];
  ethnicities: readonly string[];
  disabilities: string[];
  qualificationAims: readonly string[];
  degreeSubjects: readonly string[];
  degreeGrades: readonly string[];
  degreeTypes: readonly string[];
  institutions: readonly string[];
  nonUkCountries: string[];
}

function listsFor(v: ApiVersion): GeneratorLists {
  const accepted = new Set(acceptedTrainingRouteCodes(v));
  for (const route of ROUTES[v]) if (!accepted.has(route)) throw new Error(`generator: route ${route} is not accepted in ${v}`);
  const ages = REFERENCE_LISTS.course_age_range.filter((a) => lookupCode('course_age_range', a.code, v) !== undefined);
  return {
    primaryAgeRanges: ages.filter((a) => a.course_education_phase === 'primary').map((a) => a.code),
    // 13920 is the early-years age range, only for early-years routes.
    secondaryAgeRanges: ages.filter((a) => a.course_education_phase === 'secondary' && a.code !== '13920').map((a) => a.code),
    secondarySubjects: codesFor('course_subject', v).filter((c) => c !== PRIMARY_TEACHING && c !== EARLY_YEARS_TEACHING),
    nationalities: codesFor('nationality', v),
    ethnicities: codesFor('ethnicity', v),
    disabilities: [...codesFor('disability', v)],
    qualificationAims: codesFor('itt_qualification_aim', v),
    degreeSubjects: codesFor('degree_subject', v),
    degreeGrades: codesFor('degree_grade', v),
    degreeTypes: codesFor('degree_type', v),
    institutions: codesFor('degree_institution', v),
    nonUkCountries: REFERENCE_LISTS.country.filter((c) => !c.uk && lookupCode('country', c.code, v) !== undefined).map((c) => c.code),
  };
}

/** The course subjects' names in `v` (the contract's field-name table). */
function subjectFieldNames(v: ApiVersion): [string, string, string] {
  return [fieldLabel('course_subject_1', v), fieldLabel('course_subject_2', v), fieldLabel('course_subject_3', v)];
}

/** A serial number spelled as a capitalised name of letters (0 → `Ba`, 1 → `Be`, …), unique per serial. */
function serialName(serial: number): string {
  const consonants = 'bcdfghjklmnprstvwz';
  const vowels = 'aeiou';
  let n = serial;
  let out = '';
  do {
    out += consonants[n % consonants.length] + vowels[Math.floor(n / consonants.length) % vowels.length];
    n = Math.floor(n / (consonants.length * vowels.length));
  } while (n > 0);
  return out[0].toUpperCase() + out.slice(1);
}

/** `YYYY-MM-DD` of an epoch-milliseconds instant (UTC). */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A name reduced to the letters and digits an email local part may carry. */
function asciiLocal(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]/g, '')
      .toLowerCase() || 'x'
  );
}

/**
 * Checks `count` bodies made by `make` as the API checks a create body (`createBody`, as of
 * `today`) and throws with the first failure's messages, so a run never starts with a generator
 * the service would refuse.
 */
export function selfCheck(
  count: number,
  make: (i: number) => { data: Record<string, unknown>; version: ApiVersion; today: string; schools?: ReadonlyMap<string, School> },
): void {
  for (let i = 0; i < count; i++) {
    const { data, version, today, schools } = make(i);
    const result = createBody(structuredClone(data), { version, today, schools });
    if (!result.ok) {
      throw new Error(
        `generator produced an invalid ${version} trainee (today ${today}): ${result.errors.join('; ')}\n${JSON.stringify(data)}`,
      );
    }
  }
}
