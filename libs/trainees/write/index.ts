export type { Caller } from './caller';
export { handleTraineeCommand, loadTraineeState, schoolsNamedBy, traineeOf, writeContext } from './handle-trainee-command';
export { checkRegistration, registerTrainee } from './register-trainee';
export { keyedGuardStreams, TRAINEE_WRITE_PORTS, type SchoolLookup, type TraineeWritePorts } from './trainee-write.ports';
export { plainGuardRenames } from './guard-renames';
