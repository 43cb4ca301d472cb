/**
 * Upcaster registry: reads an event stored under an older schema version as the current one, so
 * stored events are never rewritten (docs/DESIGN.md "Event envelope"). An upcaster turns version n
 * into n + 1; they are chained.
 */
export type Upcaster = (data: unknown) => unknown;

const upcasters = new Map<string, Upcaster>();

function key(type: string, fromVersion: number): string {
  return `${type}@${fromVersion}`;
}

/** Registers the upcaster of `type` from `fromVersion` to `fromVersion + 1`. */
export function registerUpcaster(type: string, fromVersion: number, upcaster: Upcaster): void {
  upcasters.set(key(type, fromVersion), upcaster);
}

/**
 * Returns `data` of `type`, stored at `schemaVersion`, in the shape of `currentVersion`.
 * Throws when a step of the chain is missing or the stored version is newer than the code's.
 */
export function upcast(type: string, schemaVersion: number, currentVersion: number, data: unknown): unknown {
  if (schemaVersion > currentVersion) {
    throw new Error(`${type} schema version ${schemaVersion} is newer than this code's ${currentVersion}`);
  }
  let value = data;
  for (let v = schemaVersion; v < currentVersion; v++) {
    const step = upcasters.get(key(type, v));
    if (!step) throw new Error(`No upcaster for ${type} from schema version ${v}`);
    value = step(value);
  }
  return value;
}
