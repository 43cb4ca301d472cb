/**
 * The employing school and training partner of a trainee create or update
 * (docs/reference/API-FACTS.md §6.8). The reference checks these keys against its school and
 * training-partner registers; none exists here yet, so `employing_school_urn`,
 * `training_partner_urn` and `training_partner_ukprn` are stored as sent (trimmed), never refused.
 * The not-applicable URNs 900000/900010/900020/900030 and empty values are stored null; a present
 * key holding null also means "not applicable", on update too, as the reference's key test has it.
 * Only the request's own keys are read, never the merged record.
 */
import { isNotApplicableUrn, type TraineeDetails } from '@app/trainees/record';
import type { TraineeRecord } from './trainee-record';

/** The fields of the stored record that the school and partner keys give. */
export type PartnerDetails = Pick<TraineeDetails, 'employing_school_urn' | 'training_partner_urn' | 'training_partner_ukprn'>;

type PartnerField = keyof PartnerDetails;

/** A URN or UKPRN as stored: trimmed; null when blank, and for a URN also when it is a not-applicable one. */
function partnerValue(value: string | null | undefined, isUrn: boolean): string | null {
  if (value === null || value === undefined) return null;
  const t = value.trim();
  return t === '' || (isUrn && isNotApplicableUrn(t)) ? null : t;
}

/**
 * The stored school and partner of a record (docs/reference/API-FACTS.md §6.8, §7): takes the
 * record; a key absent from the request keeps the stored value (null on create), a present key
 * (even null, or one the wire checks refused) is applied; a training-partner URN wins over a
 * UKPRN and clears it, and a UKPRN alone clears the URN. Adds no message.
 */
export function partnersOf(rec: TraineeRecord): PartnerDetails {
  const { request, stored } = rec.write;
  const sent = (field: PartnerField): boolean => request[field] !== undefined || rec.invalid(field);
  let employingSchoolUrn: string | null = stored?.employing_school_urn ?? null;
  if (sent('employing_school_urn')) employingSchoolUrn = partnerValue(request.employing_school_urn, true);
  let partnerUrn: string | null = stored?.training_partner_urn ?? null;
  let partnerUkprn: string | null = stored?.training_partner_ukprn ?? null;
  if (sent('training_partner_urn')) {
    partnerUrn = partnerValue(request.training_partner_urn, true);
    partnerUkprn = null;
  } else if (sent('training_partner_ukprn')) {
    partnerUkprn = partnerValue(request.training_partner_ukprn, false);
    partnerUrn = null;
  }
  return { employing_school_urn: employingSchoolUrn, training_partner_urn: partnerUrn, training_partner_ukprn: partnerUkprn };
}
