export type { Caller } from './caller';
export { handleTraineeCommand, loadTraineeState, schoolsNamedBy, traineeOf, writeContext } from './handle-trainee-command';
export { checkRegistration, registerTrainee } from './register-trainee';
export { releaseSettledClaims, SettledClaimRelease, SETTLED_CLAIM_AGE_MS } from './settled-claims';
export { TRAINEE_WRITE_PORTS, type SchoolLookup, type TraineeWritePorts } from './trainee-write.ports';
export {
  keyedGuardNames,
  MemoryRegistrationReservations,
  type NamedClaim,
  type RegistrationClaim,
  type RegistrationReservation,
  type RegistrationReservations,
} from './registration-reservations.port';
