import { templateCsv } from '@app/uploads/csv';
import { addTraineeColumns, recommendTemplateCsv, RECOMMEND_DATE_COLUMN } from '@app/uploads/write';
import { uploadReadsController, uploadWritesController, type UploadResource } from './uploads.controller';

/** /api/{version}/trainee-uploads: new trainees from a CSV file, a row each. */
const TRAINEE_UPLOADS: UploadResource = {
  path: 'trainee-uploads',
  kind: 'add_trainees',
  noun: 'TraineeUpload',
  holds: 'new trainees',
  submitted: 'Each row becomes a trainee',
  template: {
    description: 'One header row: a column per field of the create body.',
    csv: (_uploads, _caller, contract) => templateCsv(addTraineeColumns(contract.version)),
  },
};

/** /api/{version}/recommendation-uploads: the provider's trainees recommended for QTS or EYTS from a CSV file, a dated row each. */
const RECOMMENDATION_UPLOADS: UploadResource = {
  path: 'recommendation-uploads',
  kind: 'recommend_for_award',
  noun: 'RecommendationUpload',
  holds: 'recommendations for award',
  submitted: 'Each dated row recommends its trainee',
  template: {
    description: `A row per trainee of the provider that can be recommended (\`trainee_id\`, \`provider_trainee_id\`, \`trn\`, names), with an empty \`${RECOMMEND_DATE_COLUMN}\` (\`YYYY-MM-DD\`): fill it in for each trainee to recommend, leave it empty otherwise.`,
    csv: (uploads, caller) => recommendTemplateCsv(uploads.ports, caller.ukprn),
  },
};

/** The controllers of both kinds, reads then writes, in the order their routes are registered and documented. */
export const UPLOADS_CONTROLLERS = [TRAINEE_UPLOADS, RECOMMENDATION_UPLOADS].flatMap((r) => [
  uploadReadsController(r),
  uploadWritesController(r),
]);
