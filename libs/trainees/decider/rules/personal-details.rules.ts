/** The personal-details rules of a trainee create or update, and the derived values (docs/reference/API-FACTS.md §6.3–§6.7, §13.4). */
import { addYears } from '@app/calendar';
import type { RefLists, TraineeDetails } from '@app/trainees/record';
import { squish, type TraineeRecord } from './trainee-record';

/** The personal details as checked: what the stored record is built from once no rule failed. */
export interface CheckedPersonalDetails {
  dateOfBirth: string | null;
  sex: RefLists['sex'] | undefined;
  nationality: RefLists['nationality'] | undefined;
  ethnicity: RefLists['ethnicity'] | undefined;
  /** Every non-blank `disabilityN` key, in key order, its code as sent. */
  disabilities: Record<string, string>;
}

export type PersonalDetails = Pick<
  TraineeDetails,
  | 'provider_trainee_id'
  | 'first_names'
  | 'middle_names'
  | 'last_name'
  | 'previous_last_name'
  | 'date_of_birth'
  | 'email'
  | 'sex'
  | 'nationality'
  | 'ethnicity'
  | 'ethnic_group'
  | 'ethnic_background'
  | 'additional_ethnic_background'
  | 'diversity_disclosure'
  | 'disability_disclosure'
  | 'disabilities'
  | 'ni_number'
  | 'statsagency_id'
  | 'application_id'
>;

/** The personal details' rules (docs/reference/API-FACTS.md §6.3, §6.5, §6.6); a blank email gets no format message on top. */
export function checkPersonalDetails(rec: TraineeRecord): CheckedPersonalDetails {
  rec.required('first_names');
  rec.required('last_name');
  const dateOfBirth = checkDateOfBirth(rec);
  const sex = rec.code('sex', 'sex', true);
  rec.required('statsagency_id');
  rec.required('email');
  const nationality = rec.code('nationality', 'nationality', false);
  const ethnicity = rec.code('ethnicity', 'ethnicity', false);
  const disabilities = checkDisabilities(rec);
  return { dateOfBirth, sex, nationality, ethnicity, disabilities };
}

/** date_of_birth: required, within the last 100 years, in the past, at least 16 years ago (§6.5). */
function checkDateOfBirth(rec: TraineeRecord): string | null {
  const { today } = rec;
  const dateOfBirth = rec.required('date_of_birth') ? (rec.fields.date_of_birth ?? null) : null;
  if (dateOfBirth) {
    const label = rec.label('date_of_birth');
    const range = {
      kind: 'date_of_birth_range',
      value: dateOfBirth,
      params: { earliest: addYears(today, -100), latest: addYears(today, -16) },
    };
    if (dateOfBirth < addYears(today, -100)) rec.add(['date_of_birth'], `${label} is invalid`, range);
    else if (dateOfBirth > today) rec.add(['date_of_birth'], `${label} must be in the past`, range);
    else if (dateOfBirth > addYears(today, -16)) rec.add(['date_of_birth'], `${label} cannot be less than 16 years ago`, range);
  }
  return dateOfBirth;
}

/** Non-blank `disabilityN` keys stored as sent, in key order, codes unchecked (§6.6, §6.7); the same code twice is refused. */
function checkDisabilities(rec: TraineeRecord): Record<string, string> {
  const sent = rec.fields.disabilities;
  const disabilities: Record<string, string> = {};
  const keys = Object.keys(sent ?? {}).sort((a, b) => Number(a.slice(10)) - Number(b.slice(10)) || a.localeCompare(b));
  for (const key of keys) {
    const v = sent?.[key];
    if (typeof v === 'string' && v.trim() !== '') disabilities[key] = v;
  }
  const codes = Object.values(disabilities);
  if (new Set(codes).size !== codes.length) rec.add(['rule:disabilities'], 'disabilities contain duplicate values');
  return disabilities;
}

/** disability_disclosure (§6.7, §13.4): whether a code other than "not provided" was sent, and the stored value. */
function disabilityDisclosureOf(rec: TraineeRecord, disabilities: Record<string, string>): { disclosed: boolean; value: string } {
  const known = Object.entries(disabilities)
    .filter(([key]) => /^disability[1-9]$/.test(key))
    .map(([, c]) => rec.codes.lookup('disability', c))
    .filter((e): e is RefLists['disability'] => e !== undefined);
  const kinds = new Set(known.map((e) => (e.disclosure_when_only_code === 'disability_not_provided' ? 'not_provided' : e.code)));
  const disclosed = kinds.size > 0 && !(kinds.size === 1 && kinds.has('not_provided'));
  if (!disclosed) return { disclosed, value: 'disability_not_provided' };
  const onlyNoDisability = kinds.size === 1 && known.every((e) => e.disclosure_when_only_code === 'no_disability');
  return { disclosed, value: onlyNoDisability ? 'no_disability' : 'disabled' };
}

/** The stored personal details: texts squished, output codes, derived ethnicity, disclosures (docs/reference/API-FACTS.md §6.7, §13.4). */
export function personalDetailsOf(rec: TraineeRecord, checked: CheckedPersonalDetails): PersonalDetails {
  const { fields } = rec;
  const { ethnicity } = checked;
  const middleNames = rec.text('middle_names');
  const disability = disabilityDisclosureOf(rec, checked.disabilities);
  const ethnicBackground = ethnicity?.ethnic_background ?? 'Not provided';
  const ethnicityDisclosed = ethnicBackground !== 'Not provided' && ethnicBackground !== 'Information refused';
  return {
    provider_trainee_id: rec.text('provider_trainee_id'),
    first_names: squish(fields.first_names!),
    middle_names: middleNames === null ? null : squish(middleNames),
    last_name: squish(fields.last_name!),
    previous_last_name: rec.text('previous_last_name'),
    date_of_birth: checked.dateOfBirth!,
    email: squish(fields.email!),
    sex: checked.sex!.code,
    nationality: checked.nationality?.output_code ?? null,
    ethnicity: ethnicity?.output_code ?? '997',
    ethnic_group: ethnicity?.ethnic_group ?? 'not_provided_ethnic_group',
    ethnic_background: ethnicBackground,
    additional_ethnic_background: rec.write.stored?.additional_ethnic_background ?? null,
    diversity_disclosure: disability.disclosed || ethnicityDisclosed ? 'diversity_disclosed' : 'diversity_not_disclosed',
    disability_disclosure: disability.value,
    disabilities: checked.disabilities,
    ni_number: rec.text('ni_number'),
    statsagency_id: squish(fields.statsagency_id!),
    application_id: typeof fields.application_id === 'number' ? fields.application_id : null,
  };
}
