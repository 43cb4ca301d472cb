/**
 * One contract per API version (docs/spec/trainee-records-api.md "Versioning"; docs/reference/API-FACTS.md §18). The API, the OpenAPI
 * documents and the admin CLI ask a version's contract; nothing else names a version.
 */
import type { TraineeRules } from '@app/trainees/decider';
import { enhancedErrors, type EnhancedErrors } from './enhanced-errors';
import { outputFor, type VersionOutput } from '@app/trainees/answers';
import { referenceDataFor, type ReferenceDataBody } from './reference-data';
import { traineeRulesFor } from './rules';
import { API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import { requestsFor, type VersionRequests } from './wire/requests';

/** Endpoints and answers that only some versions have. */
export interface VersionFeatures {
  /** `POST …/update-qts-or-eyts-status` is routed, as recommend-for-qts (§1.9, §12.5). */
  updateQtsOrEytsStatus: boolean;
  /** Enhanced errors group nested degree and placement messages under their attribute (§5.4). */
  nestedEnhancedErrors: boolean;
}

const FEATURES: Readonly<Record<ApiVersion, VersionFeatures>> = {
  'v2025.0': { updateQtsOrEytsStatus: false, nestedEnhancedErrors: false },
  'v2026.1': { updateQtsOrEytsStatus: true, nestedEnhancedErrors: true },
};

/** Everything one API version says about its wire. */
export interface VersionContract {
  readonly version: ApiVersion;
  /** The trainee rules the decider applies (the version's differences as data). */
  readonly rules: TraineeRules;
  /** The write bodies' wire checks: body `data` → typed fields and problems. */
  readonly requests: VersionRequests;
  /** The answers: serializers and their JSON Schemas. */
  readonly output: VersionOutput;
  readonly features: VersionFeatures;
  /** The body of `GET /reference-data`, or null where the version has none (docs/reference/API-FACTS.md §17). */
  readonly referenceData: ReferenceDataBody | null;
  /** The `Enhanced-Errors: true` form of a trainee create or update 422 (docs/reference/API-FACTS.md §5.4). */
  enhancedErrors(messages: readonly string[]): EnhancedErrors;
}

const CONTRACTS: Readonly<Record<ApiVersion, VersionContract>> = Object.fromEntries(
  API_VERSIONS.map((version) => {
    const features = FEATURES[version];
    const contract: VersionContract = {
      version,
      rules: traineeRulesFor(version),
      requests: requestsFor(version),
      output: outputFor(version),
      features,
      referenceData: referenceDataFor(version),
      enhancedErrors: (messages) => enhancedErrors(messages, { nested: features.nestedEnhancedErrors }),
    };
    return [version, Object.freeze(contract)];
  }),
) as Record<ApiVersion, VersionContract>;

/** The contract of `version`. */
export function contractFor(version: ApiVersion): VersionContract {
  return CONTRACTS[version];
}
