import { createCipheriv, createDecipheriv } from 'node:crypto';
import { randomView } from '@app/event-sourcing';

/** What an opened event holds in place of each personal value once the trainee's key is destroyed. */
export const ERASED = '[erased]';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Left in each sealed place, so the data keeps its shape and key order. */
export const SEALED_VALUE = '[sealed]';

/**
 * One event's personal values sealed (docs/DESIGN.md "Personal data"): `fields` their paths, in the clear so an erased history still
 * says what changed; `box` base64 of IV ‖ AES-256-GCM of the JSON array of values ‖ tag; `version` what {@link boxAad} binds.
 */
export interface SealedValues {
  fields: string[];
  box: string;
  version?: typeof BOX_VERSION;
}

export const BOX_VERSION = 2;

/** What a box's authenticated data binds it to; `eventId` bound in lower case, as every store keeps it. */
export interface BoxBinding {
  streamId: string;
  eventId: string;
  type: string;
}

/** Version 2: `["sealed/2", streamId, eventId, type, fields]` as JSON, so no two bindings give one text; no version: the stream id. */
export function boxAad(version: number | undefined, binding: BoxBinding, fields: readonly string[]): Buffer {
  if (version === undefined) return Buffer.from(binding.streamId);
  return Buffer.from(JSON.stringify([`sealed/${version}`, binding.streamId, binding.eventId.toLowerCase(), binding.type, fields]));
}

export const SEALED = 'sealed';

/** Altered, or sealed with another trainee's key. */
export class SealedValuesNotOpened extends Error {
  constructor() {
    super('sealed personal values do not open with the trainee data key (altered, or sealed for another trainee)');
    this.name = 'SealedValuesNotOpened';
  }
}

/**
 * `data` with its non-null values at `paths` (`key` or `<key>.<key>`) sealed into `data.sealed` under `key`, bound by {@link boxAad};
 * `data` itself, unchanged, when it holds none. Pass the same `paths` array per event type (it is cached). `told` gets the plaintext.
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

/** {@link sealFields}' first step. */
export interface TakenValues {
  data: Record<string, unknown>;
  fields: string[];
  values: unknown[];
}

/** Null when `data` holds none of the values (sealing needs no key); `data` is never changed. */
export function takeValues(data: Record<string, unknown>, paths: readonly string[]): TakenValues | null {
  const places = placesOf(paths);
  const fields: string[] = [];
  const values: unknown[] = [];
  // Spread and written in place, never built key by key or `delete`d, to keep V8's fast properties for every later reader.
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

/** {@link sealFields}' second step; changes and returns `taken.data`. */
export function sealTaken(taken: TakenValues, key: Buffer, binding: BoxBinding, told?: (values: string) => void): Record<string, unknown> {
  const iv = randomView(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(boxAad(BOX_VERSION, binding, taken.fields));
  const plaintext = JSON.stringify(taken.values);
  const box = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  told?.(plaintext);
  taken.data[SEALED] = { fields: taken.fields, box: box.toString('base64'), version: BOX_VERSION } satisfies SealedValues;
  return taken.data;
}

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

export function isSealed(data: unknown): data is Record<string, unknown> & { sealed: SealedValues } {
  return isObject(data) && isObject(data[SEALED]) && Array.isArray((data[SEALED] as Partial<SealedValues>).fields);
}

/**
 * The data with its values back where they were, {@link ERASED} in each with `key` `erased`; unsealed data as it is. Throws
 * {@link SealedValuesNotOpened} when the box does not open: altered, another key or event, its field list changed, an unknown version.
 */
export function openFields(data: Record<string, unknown>, key: Buffer | 'erased', binding: BoxBinding): Record<string, unknown> {
  if (!isSealed(data)) return data;
  const { version, fields, box } = data.sealed;
  if (version !== undefined && version !== BOX_VERSION) throw new SealedValuesNotOpened();
  return placed(data, key === 'erased' ? null : openBox(box, key, boxAad(version, binding, fields)));
}

/** Opens with the plaintext the sealing thread told (`sealFields`' `told`); {@link SealedValuesNotOpened} for a count mismatch. */
export function openFieldsWith(data: Record<string, unknown>, values: unknown[]): Record<string, unknown> {
  return isSealed(data) ? placed(data, values) : data;
}

function placed(data: Record<string, unknown> & { sealed: SealedValues }, values: unknown[] | null): Record<string, unknown> {
  const { fields } = data.sealed;
  if (values !== null && (!Array.isArray(values) || values.length !== fields.length)) throw new SealedValuesNotOpened();
  // The event's own keys are few: copied one by one. Holders of many keys (`details`) are spread, as in takeValues.
  const opened: Record<string, unknown> = {};
  for (const k of Object.keys(data)) if (k !== SEALED) opened[k] = data[k];
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

/** Cached: the paths are few and read on every open. */
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
