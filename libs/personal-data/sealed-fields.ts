import { createCipheriv, createDecipheriv } from 'node:crypto';
import { randomView } from '@app/event-sourcing';

/** What an opened event holds in place of each personal value once the trainee's key is destroyed. */
export const ERASED = '[erased]';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The personal values of one event, sealed: `fields` names where each was (a key of the data, or
 * `<key>.<key>` one level down), in the clear so an erased trainee's history still says which
 * fields an event changed; `box` is base64 of IV (12 bytes) ‖ AES-256-GCM ciphertext of the JSON
 * array of the values in that order ‖ tag (16 bytes).
 */
export interface SealedValues {
  fields: string[];
  box: string;
}

/** The property of an event's data that holds its {@link SealedValues}. */
export const SEALED = 'sealed';

/** A sealed box that does not open with the key given: altered, or sealed with another trainee's key. */
export class SealedValuesNotOpened extends Error {
  constructor() {
    super('sealed personal values do not open with the trainee data key (altered, or sealed for another trainee)');
    this.name = 'SealedValuesNotOpened';
  }
}

/**
 * `data` with the values at `paths` that it holds (null is no value, and stays) taken out and sealed together under `key`
 * (AES-256-GCM, `node:crypto`, a random IV; `aad`, the trainee's stream id, as authenticated data)
 * into `data.sealed` ({@link SealedValues}); `data` itself unchanged when it holds none of them.
 * `paths`: keys of `data`, or `<key>.<key>` inside an object value. The rule: docs/DESIGN.md
 * "Personal data".
 */
export function sealFields(data: Record<string, unknown>, paths: readonly string[], key: Buffer, aad: string): Record<string, unknown> {
  const fields: string[] = [];
  const values: unknown[] = [];
  /** The sealed keys of `data` (null), and of its nested objects (their keys), by key of `data`. */
  const taken = new Map<string, Set<string> | null>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    const outer = dot < 0 ? path : path.slice(0, dot);
    const holder = dot < 0 ? data : data[outer];
    const name = dot < 0 ? path : path.slice(dot + 1);
    if (!isObject(holder) || !Object.prototype.hasOwnProperty.call(holder, name)) continue;
    const value = holder[name];
    if (value === null || value === undefined) continue;
    fields.push(path);
    values.push(value);
    if (dot < 0) taken.set(outer, null);
    else if (taken.get(outer) !== null) taken.set(outer, (taken.get(outer) ?? new Set<string>()).add(name));
  }
  if (fields.length === 0) return data;
  // Copies without the sealed keys, never `delete`: objects keep their fast shape.
  const sealed: Record<string, unknown> = {};
  for (const k of Object.keys(data)) {
    const inner = taken.get(k);
    if (inner === null) continue;
    sealed[k] = inner === undefined ? data[k] : without(data[k] as Record<string, unknown>, inner);
  }
  const iv = randomView(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(aad));
  const box = Buffer.concat([iv, cipher.update(JSON.stringify(values), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  sealed[SEALED] = { fields, box: box.toString('base64') } satisfies SealedValues;
  return sealed;
}

function without(o: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (!keys.has(k)) copy[k] = o[k];
  return copy;
}

/** True when `data` holds sealed personal values. */
export function isSealed(data: unknown): data is Record<string, unknown> & { sealed: SealedValues } {
  return isObject(data) && isObject(data[SEALED]) && Array.isArray((data[SEALED] as Partial<SealedValues>).fields);
}

/**
 * The data {@link sealFields} sealed, with its values back where they were; with `key` `erased`,
 * {@link ERASED} in place of each. Data without sealed values is returned as it is. Throws
 * {@link SealedValuesNotOpened} when the box does not open (altered, another key or `aad`).
 */
export function openFields(data: Record<string, unknown>, key: Buffer | 'erased', aad: string): Record<string, unknown> {
  if (!isSealed(data)) return data;
  const { fields, box } = data.sealed;
  const values = key === 'erased' ? fields.map(() => ERASED) : openBox(box, key, aad);
  if (values.length !== fields.length) throw new SealedValuesNotOpened();
  const opened: Record<string, unknown> = {};
  for (const k of Object.keys(data)) if (k !== SEALED) opened[k] = data[k];
  const copied = new Set<string>();
  for (let i = 0; i < fields.length; i++) {
    const path = fields[i];
    const dot = path.indexOf('.');
    if (dot < 0) {
      opened[path] = values[i];
      continue;
    }
    const outer = path.slice(0, dot);
    if (!copied.has(outer)) {
      opened[outer] = isObject(opened[outer]) ? { ...opened[outer] } : {};
      copied.add(outer);
    }
    (opened[outer] as Record<string, unknown>)[path.slice(dot + 1)] = values[i];
  }
  return opened;
}

function openBox(box: string, key: Buffer, aad: string): unknown[] {
  const bytes = Buffer.from(box, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SealedValuesNotOpened();
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad)).setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    text = decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES), undefined, 'utf8') + decipher.final('utf8');
  } catch {
    throw new SealedValuesNotOpened();
  }
  const values: unknown = JSON.parse(text);
  if (!Array.isArray(values)) throw new SealedValuesNotOpened();
  return values;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
