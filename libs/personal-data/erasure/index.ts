export { eraseTrainee, erasureSummary, type Erasure, type ErasurePorts } from './erase-trainee';
export { applyRetention, courseEndedOn, cutoffProblem, endedBefore, RETENTION_PAGE, type RetentionRun } from './retention';
