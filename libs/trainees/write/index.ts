export type { Caller } from './caller';
export { handleTraineeCommand, loadTraineeState, schoolsNamedBy, traineeOf, writeContext } from './handle-trainee-command';
export { checkRegistration, registerTrainee } from './register-trainee';
export { TRAINEE_WRITE_PORTS, type SchoolLookup, type TraineeWritePorts } from './trainee-write.ports';
export {
  keyedGuardNames,
  MemoryRegistrationReservations,
  type RegistrationClaim,
  type RegistrationReservation,
  type RegistrationReservations,
} from './registration-reservations.port';
