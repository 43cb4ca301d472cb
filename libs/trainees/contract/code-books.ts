/**
 * The codes each API version accepts and how its unknown-code messages list them (docs/reference/API-FACTS.md §6.6, §6.9, §18), from
 * the catalogue's `versions` and the table below: the only places the versions' lists differ. Only a JSON string is ever a code.
 */
import { REFERENCE_LISTS, type CodedEntry, type RefListName, type RefLists, API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import type { CodeBook } from '@app/trainees/decider';
import { echoValue } from './wire/values';

interface VersionCodeTable {
  /** Training routes a write may set (docs/reference/API-FACTS.md §6.6, §18). */
  readonly routesAcceptedOnWrite: readonly string[];
  /** The ten codes an unknown-code message lists where the reference's order is not by code (§6.9 gives them verbatim). */
  readonly messageOrder: Partial<Record<RefListName, readonly string[]>>;
}

/** What differs between the versions' code lists (the reference data's `versions`/`by_version` annotations). */
const VERSION_CODE_TABLES: Readonly<Record<ApiVersion, VersionCodeTable>> = {
  'v2025.0': {
    routesAcceptedOnWrite: ['02', '03', '09', '10', '11', '12', '14'],
    messageOrder: {
      ethnicity: ['180', '100', '101', '103', '104', '119', '120', '121', '139', '140'],
      course_subject: ['101117', '100343', '101038', '100358', '101060', '101192', '100346', '100078', '100079', '100417'],
      nationality: ['AL', 'AF', 'DZ', 'US', 'AD', 'AO', 'AI', 'AR', 'AM', 'AU'],
      country: ['AF', 'XQ', 'AX', 'AL', 'DZ', 'AS', 'AD', 'AO', 'AI', 'XX'],
      degree_type: ['002', '010', '013', '014', '051', '052', '053', '054', '055', '056'],
    },
  },
  'v2026.1': {
    routesAcceptedOnWrite: ['03', '09', '10', '11', '12', '14', '15', '16', '17', '18', '19', '20', '21'],
    messageOrder: {},
  },
};

/** One version's code lists: lookups by code and the unknown-code messages. */
class VersionCodeBook implements CodeBook {
  private readonly byCode: { [L in RefListName]?: ReadonlyMap<string, RefLists[L]> } = {};
  private readonly codes: { [L in RefListName]?: readonly string[] } = {};
  private readonly messageTails: { [L in RefListName]?: string } = {};
  private readonly accepted: ReadonlySet<string>;

  constructor(version: ApiVersion, table: VersionCodeTable) {
    this.accepted = new Set(table.routesAcceptedOnWrite);
    for (const list of Object.keys(REFERENCE_LISTS) as RefListName[]) {
      const entries = (REFERENCE_LISTS[list] as readonly CodedEntry[]).filter((e) => !e.versions || e.versions.includes(version));
      (this.byCode as Record<string, Map<string, CodedEntry>>)[list] = new Map(entries.map((e) => [e.code, e]));
      this.codes[list] = Object.freeze(entries.map((e) => e.code));
      const all = list === 'training_route' ? entries.map((e) => e.code).filter((c) => this.accepted.has(c)) : entries.map((e) => e.code);
      const quoted = (all.length >= 10 ? (table.messageOrder[list] ?? all).slice(0, 10) : all).map((c) => `'${c}'`).join(', ');
      this.messageTails[list] = all.length >= 10 ? `Example values include ${quoted}...` : `Valid values are ${quoted}.`;
    }
  }

  lookup<L extends RefListName>(list: L, code: unknown): RefLists[L] | undefined {
    return typeof code === 'string' ? (this.byCode[list]?.get(code) as RefLists[L] | undefined) : undefined;
  }

  routeAcceptedOnWrite(code: string): boolean {
    return this.accepted.has(code) && this.lookup('training_route', code) !== undefined;
  }

  unknownCodeMessage(label: string, value: unknown, list: RefListName): string {
    return `${label} has invalid reference data value of '${echoValue(value)}'. ${this.messageTails[list]}`;
  }

  /** Every code of `list` this version accepts, in file order (sorted by code). */
  codesOf(list: RefListName): readonly string[] {
    return this.codes[list] ?? [];
  }

  /** Route codes accepted on write, sorted by code. */
  get acceptedRoutes(): readonly string[] {
    return this.codesOf('training_route').filter((c) => this.accepted.has(c));
  }
}

const BOOKS: Readonly<Record<ApiVersion, VersionCodeBook>> = Object.fromEntries(
  API_VERSIONS.map((v) => [v, new VersionCodeBook(v, VERSION_CODE_TABLES[v])]),
) as Record<ApiVersion, VersionCodeBook>;

/** The code book of `version` (the decider's {@link CodeBook}, plus the version's code lists). */
export function codeBookFor(
  version: ApiVersion,
): CodeBook & { codesOf(list: RefListName): readonly string[]; readonly acceptedRoutes: readonly string[] } {
  return BOOKS[version];
}

/** The entry of `code` in `list` when `code` (any JSON value; only strings match) is valid in `version`. */
export function lookupCode<L extends RefListName>(list: L, code: unknown, version: ApiVersion): RefLists[L] | undefined {
  return BOOKS[version].lookup(list, code);
}

/** True when `code` (any JSON value) is a valid code of `list` in `version`. */
export function isKnownCode(list: RefListName, code: unknown, version: ApiVersion): boolean {
  return lookupCode(list, code, version) !== undefined;
}

/** Every code of `list` valid in `version`, in file order (sorted by code). */
export function codesFor(list: RefListName, version: ApiVersion): readonly string[] {
  return BOOKS[version].codesOf(list);
}

/** Whether a create or update may set route `code` in `version` (docs/reference/API-FACTS.md §6.6); route 12's cycle is the decider's. */
export function isTrainingRouteAcceptedOnWrite(code: unknown, version: ApiVersion): boolean {
  return typeof code === 'string' && BOOKS[version].routeAcceptedOnWrite(code);
}

/** Route codes accepted on write in `version`, sorted by code. */
export function acceptedTrainingRouteCodes(version: ApiVersion): readonly string[] {
  return BOOKS[version].acceptedRoutes;
}

/** The codes an unknown-code message of `list` quotes in `version` (docs/reference/API-FACTS.md §6.9). */
export function messageCodes(list: RefListName, version: ApiVersion): readonly string[] {
  const tail = unknownCodeMessage('', '', list, version).replace(
    /^ has invalid reference data value of ''\. (Example values include |Valid values are )/,
    '',
  );
  return tail
    .replace(/\.{1,3}$/, '')
    .split(', ')
    .map((c) => c.slice(1, -1));
}

/** The unknown-code message of docs/reference/API-FACTS.md §6.9, byte for byte; `value`: any JSON value, echoed as sent. */
export function unknownCodeMessage(label: string, value: unknown, list: RefListName, version: ApiVersion): string {
  return BOOKS[version].unknownCodeMessage(label, value, list);
}
