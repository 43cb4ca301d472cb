export { DEGREE_FIELDS, PLACEMENT_FIELDS, TRAINEE_FIELDS, fieldsOf, type OutputField } from './output-fields';
export { answerItem, renderTraineeAnswer, renderTraineeAnswers, type TraineeAnswer } from './trainee-answers';
export { outputFor, VersionOutput } from './trainee.output';
