import { createCipheriv, createDecipheriv } from 'node:crypto';
import { randomView } from '@app/event-sourcing';

/** What an opened event holds in place of each personal value once the trainee's key is destroyed. */
export const ERASED = '[erased]';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * What a sealed event's data holds in each place whose value was sealed: the key stays where it
 * was, so the data keeps its shape and key order, and the value is in the box.
 */
export const SEALED_VALUE = '[sealed]';

/**
 * The personal values of one event, sealed: `fields` names where each was (a key of the data, or
 * `<key>.<key>` one level down), in the clear so an erased trainee's history still says which
 * fields an event changed; `box` is base64 of IV (12 bytes) ‖ AES-256-GCM ciphertext of the JSON
 * array of the values in that order ‖ tag (16 bytes). Each of those places holds
 * {@link SEALED_VALUE} (events sealed before it was kept in place lack those keys; both open).
 * `version` says what the box's authenticated data binds it to ({@link boxAad}): 2, the stream,
 * the event's id and type and `fields`; absent (boxes sealed before version 2), the stream alone.
 */
export interface SealedValues {
  fields: string[];
  box: string;
  version?: typeof BOX_VERSION;
}

/** The version of the boxes sealed now (see {@link SealedValues}). */
export const BOX_VERSION = 2;

/**
 * The event a box is sealed in, what its authenticated data binds it to: the stream, the event's id
 * (the writer's UUID, bound in lower case, as every store keeps it; an export and import keep it
 * too) and its type.
 */
export interface BoxBinding {
  streamId: string;
  eventId: string;
  type: string;
}

/**
 * The authenticated data of a box of `version` (docs/DESIGN.md "Personal data"), UTF-8: for
 * version 2 the JSON text of `["sealed/2", streamId, eventId, type, fields]` (JSON escapes every
 * string, so no two bindings give one text); for a box without a version, the stream id alone.
 */
export function boxAad(version: number | undefined, binding: BoxBinding, fields: readonly string[]): Buffer {
  if (version === undefined) return Buffer.from(binding.streamId);
  return Buffer.from(JSON.stringify([`sealed/${version}`, binding.streamId, binding.eventId.toLowerCase(), binding.type, fields]));
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
 * `data` with the values at `paths` that it holds (null is no value, and stays) sealed together
 * under `key` (AES-256-GCM, `node:crypto`, a random IV; as authenticated data {@link boxAad} of
 * {@link BOX_VERSION}: the event `binding` names and the field list) into `data.sealed`
 * ({@link SealedValues}), each replaced by
 * {@link SEALED_VALUE} where it was; `data` itself (never changed) when it holds none of them.
 * `paths`: keys of `data`, or `<key>.<key>` inside an object value; the same array for the same
 * event type (it is read once, then kept). `told`, when given, is called with the JSON text of
 * the values sealed, the box's plaintext (see {@link openFieldsWith}). The rule: docs/DESIGN.md
 * "Personal data".
 */
export function sealFields(
  data: Record<string, unknown>,
  paths: readonly string[],
  key: Buffer,
  binding: BoxBinding,
  told?: (values: string) => void,
): Record<string, unknown> {
  const taken = takeValues(data, paths);
  return taken === null ? data : sealTaken(taken, key, binding, told);
}

/** The first step of {@link sealFields}: the personal values of an event taken out, not yet sealed. */
export interface TakenValues {
  /** A copy of the data, {@link SEALED_VALUE} in place of each value taken. */
  data: Record<string, unknown>;
  fields: string[];
  values: unknown[];
}

/**
 * The values of `data` at `paths` (as {@link sealFields} takes them) taken out, or null when it
 * holds none (sealing it needs no key). `data` itself is never changed.
 */
export function takeValues(data: Record<string, unknown>, paths: readonly string[]): TakenValues | null {
  const places = placesOf(paths);
  const fields: string[] = [];
  const values: unknown[] = [];
  // Copies made by spreading and written in place, never built key by key or `delete`d: they keep
  // the data's shape (V8's fast properties), which every later reader of the data gains from.
  let copied: Record<string, unknown> | null = null;
  for (const k of places.outer) {
    const value = data[k];
    if (value === null || value === undefined) continue;
    copied ??= { ...data };
    fields.push(k);
    values.push(value);
    copied[k] = SEALED_VALUE;
  }
  for (const [holder, inner] of places.inner) {
    const o = data[holder];
    if (!isObject(o)) continue;
    let copy: Record<string, unknown> | null = null;
    for (const [k, path] of inner) {
      const value = o[k];
      if (value === null || value === undefined) continue;
      copy ??= { ...o };
      fields.push(path);
      values.push(value);
      copy[k] = SEALED_VALUE;
    }
    if (copy !== null) (copied ??= { ...data })[holder] = copy;
  }
  return copied === null ? null : { data: copied, fields, values };
}

/**
 * The second step of {@link sealFields}: `taken`'s values sealed under `key` into `taken.data.sealed`
 * (`taken.data` is changed, and returned). `told` as for {@link sealFields}.
 */
export function sealTaken(taken: TakenValues, key: Buffer, binding: BoxBinding, told?: (values: string) => void): Record<string, unknown> {
  const iv = randomView(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(boxAad(BOX_VERSION, binding, taken.fields));
  const plaintext = JSON.stringify(taken.values);
  const box = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  told?.(plaintext);
  taken.data[SEALED] = { fields: taken.fields, box: box.toString('base64'), version: BOX_VERSION } satisfies SealedValues;
  return taken.data;
}

/** The sealed places of one event type: keys of the data, and per object value the keys inside it with their paths. */
interface Places {
  outer: readonly string[];
  inner: readonly (readonly [holder: string, keys: readonly (readonly [key: string, path: string])[]])[];
}

const placesByPaths = new WeakMap<readonly string[], Places>();

function placesOf(paths: readonly string[]): Places {
  let places = placesByPaths.get(paths);
  if (places) return places;
  const outer: string[] = [];
  const inner = new Map<string, [string, string][]>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    if (dot < 0) outer.push(path);
    else {
      const holder = path.slice(0, dot);
      inner.set(holder, [...(inner.get(holder) ?? []), [path.slice(dot + 1), path]]);
    }
  }
  placesByPaths.set(paths, (places = { outer, inner: [...inner] }));
  return places;
}

/** True when `data` holds sealed personal values. */
export function isSealed(data: unknown): data is Record<string, unknown> & { sealed: SealedValues } {
  return isObject(data) && isObject(data[SEALED]) && Array.isArray((data[SEALED] as Partial<SealedValues>).fields);
}

/**
 * The data {@link sealFields} sealed in the event `binding` names, with its values back where they
 * were; with `key` `erased`, {@link ERASED} in place of each. Data without sealed values is
 * returned as it is. Throws {@link SealedValuesNotOpened} when the box does not open: altered,
 * another key, moved to another event (or, for a box without a version, another stream), its
 * field list altered or reordered, or a version this code does not know.
 */
export function openFields(data: Record<string, unknown>, key: Buffer | 'erased', binding: BoxBinding): Record<string, unknown> {
  if (!isSealed(data)) return data;
  const { version, fields, box } = data.sealed;
  if (version !== undefined && version !== BOX_VERSION) throw new SealedValuesNotOpened();
  return placed(data, key === 'erased' ? null : openBox(box, key, boxAad(version, binding, fields)));
}

/**
 * The data {@link sealFields} sealed, with `values` put back where its `fields` say: for a thread
 * of the process that sealed it, told the box's plaintext (`sealFields`' `told`), so that it need
 * not open the box. Data without sealed values is returned as it is. Throws
 * {@link SealedValuesNotOpened} when `values` is not one value per field.
 */
export function openFieldsWith(data: Record<string, unknown>, values: unknown[]): Record<string, unknown> {
  return isSealed(data) ? placed(data, values) : data;
}

/** `data` (sealed) without `sealed`, each of `values` (or {@link ERASED}, when null) where its field was. */
function placed(data: Record<string, unknown> & { sealed: SealedValues }, values: unknown[] | null): Record<string, unknown> {
  const { fields } = data.sealed;
  if (values !== null && (!Array.isArray(values) || values.length !== fields.length)) throw new SealedValuesNotOpened();
  // The event's own keys are few: copied one by one, without `sealed`. The holders of many keys
  // (`details`) are spread and written in place, as in sealFields.
  const opened: Record<string, unknown> = {};
  for (const k of Object.keys(data)) if (k !== SEALED) opened[k] = data[k];
  /** The holders copied already (a value goes back into a copy, never into the stored data); one or two. */
  const copied: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const value = values === null ? ERASED : values[i];
    const [outer, inner] = splitPath(fields[i]);
    if (inner === null) {
      opened[outer] = value;
      continue;
    }
    if (!copied.includes(outer)) {
      const o = opened[outer];
      opened[outer] = isObject(o) ? { ...o } : {};
      copied.push(outer);
    }
    (opened[outer] as Record<string, unknown>)[inner] = value;
  }
  return opened;
}

/** A field path split at its dot, kept: the paths are few (those of `placesOf`), read on every open. */
const splitPaths = new Map<string, readonly [string, string | null]>();

function splitPath(path: string): readonly [string, string | null] {
  let split = splitPaths.get(path);
  if (split) return split;
  const dot = path.indexOf('.');
  split = dot < 0 ? [path, null] : [path.slice(0, dot), path.slice(dot + 1)];
  // A stored event may name any path: only so many are kept.
  if (splitPaths.size < 1000) splitPaths.set(path, split);
  return split;
}

function openBox(box: string, key: Buffer, aad: Buffer): unknown[] {
  const bytes = Buffer.from(box, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SealedValuesNotOpened();
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(aad).setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
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
