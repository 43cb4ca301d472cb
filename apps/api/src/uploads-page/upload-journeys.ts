/**
 * The page's two kinds of upload, each a journey of its own pages (docs/DESIGN.md "The uploads page"): new trainees at `/uploads`,
 * recommendations for QTS or EYTS at `/uploads/recommendations`; the same steps, the same routes' rules, their own words.
 */
import type { UploadKind } from '@app/uploads/decider';

export interface UploadJourney {
  kind: UploadKind;
  /** Its start page, under the scope's `/uploads` prefix: `''` or `/recommendations`. */
  path: string;
  /** Its files' names: `trainee-upload-<id>-errors.csv`. */
  fileNoun: string;
  /** What becomes of a row once submitted: "will be added". */
  going: string;
  /** The page's heading while the rows are written. */
  working: string;
  /** The result's heading. */
  done: string;
  /** The submit button's words. */
  submit: string;
  /** What a submitted row did, after "N trainees": "added", "recommended". */
  did: string;
}

export const ADD_TRAINEES: UploadJourney = {
  kind: 'add_trainees',
  path: '',
  fileNoun: 'trainee-upload',
  going: 'will be added',
  working: 'Adding trainees',
  done: 'Trainees added',
  submit: 'Submit trainees',
  did: 'added',
};

export const RECOMMENDATIONS: UploadJourney = {
  kind: 'recommend_for_award',
  path: '/recommendations',
  fileNoun: 'recommendation-upload',
  going: 'will be recommended',
  working: 'Recommending trainees',
  done: 'Trainees recommended',
  submit: 'Submit recommendations',
  did: 'recommended',
};

export const UPLOAD_JOURNEYS = [ADD_TRAINEES, RECOMMENDATIONS] as const;

/** The journey's start page: `/uploads`, `/uploads/recommendations`. */
export const startUrl = (journey: UploadJourney): string => `/uploads${journey.path}`;

/** Where its uploads are posted, and the prefix of each one's pages: `/uploads/files`, `/uploads/recommendations/files`. */
export const filesUrl = (journey: UploadJourney): string => `/uploads${journey.path}/files`;

/** The journey a path under `/uploads` belongs to. */
export function journeyOf(url: string): UploadJourney {
  return url.startsWith(startUrl(RECOMMENDATIONS)) ? RECOMMENDATIONS : ADD_TRAINEES;
}
