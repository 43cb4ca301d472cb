export { createRegistry } from './create-registry';
export {
  REGISTRY_PM_CHECKPOINT,
  REGISTRY_PM_EVENT_TYPES,
  RegistryProcessManager,
  type CheckpointStore as ConsumerCheckpoints,
} from './registry-process-manager';
export type { TeacherRegistry, TrnRequest } from './registry.port';
export { SANDBOX_REGISTRY_DEFAULT_DELAY_MS, SANDBOX_REGISTRY_MAX_DELAY_MS, SandboxRegistry } from './sandbox-registry';
