/** Turns an event's data from schema version n to n + 1, so stored events are never rewritten (docs/DESIGN.md "Event envelope"). */
export type Upcaster = (data: unknown) => unknown;

const upcasters = new Map<string, Upcaster>();

function key(type: string, fromVersion: number): string {
  return `${type}@${fromVersion}`;
}

export function registerUpcaster(type: string, fromVersion: number, upcaster: Upcaster): void {
  upcasters.set(key(type, fromVersion), upcaster);
}

/** `data` stored at `schemaVersion` in the shape of `currentVersion`; throws for a missing step or a version newer than the code's. */
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
