/**
 * The employing school and training partner (docs/reference/API-FACTS.md §6.8). With no register to check them against, the keys are
 * stored as sent (trimmed), never refused; not-applicable URNs and blanks as null. Only the request's own keys are read.
 */
import { isNotApplicableUrn, type TraineeDetails } from '@app/trainees/record';
import type { TraineeRecord } from './trainee-record';

export type PartnerDetails = Pick<TraineeDetails, 'employing_school_urn' | 'training_partner_urn' | 'training_partner_ukprn'>;

type PartnerField = keyof PartnerDetails;

/** A URN or UKPRN as stored: trimmed; null when blank, and for a URN also when it is a not-applicable one. */
function partnerValue(value: string | null | undefined, isUrn: boolean): string | null {
  if (value === null || value === undefined) return null;
  const t = value.trim();
  return t === '' || (isUrn && isNotApplicableUrn(t)) ? null : t;
}

/**
 * A key absent keeps the stored value; a present one (even null, or refused) is applied (§6.8, §7). A partner URN wins over a UKPRN
 * and clears it; a UKPRN alone clears the URN. Adds no message.
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
