import { plainToInstance } from 'class-transformer';
import {
  IsIn,
  IsOptional,
  MaxLength,
  Validate,
  ValidatorConstraint,
  validateSync,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { currentAcademicCycle, isKnownAcademicCycle } from '@app/trainees/decider';
import { STATUS_FILTERS, utcDateOf, type StatusFilter, type TraineeListQuery } from '@app/trainees/read';
import { ListQueryInvalid } from '../../errors/errors';
import { AS_OF_MAX_LENGTH, parseAsOf } from '../as-of';
import { leadingInteger, QUERY_VALUE_MAX_CHARS, quoted } from '../../query-params/query-values';

export { AS_OF_MAX_LENGTH };

const SINCE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** An ISO 8601 date or date-time as a UTC instant (`…Z`, ms); a zone-less value is read as UTC. Null if invalid. */
export function parseSince(value: string): string | null {
  const m = SINCE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '0', zone = 'Z'] = m;
  const z = zone === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Number(`0.${frac}`) * 1000;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}.${String(Math.floor(ms)).padStart(3, '0')}${z}`;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  // Reject impossible calendar dates that Date.parse rolls over (2025-02-30).
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return null;
  return new Date(t).toISOString();
}

@ValidatorConstraint({ name: 'academicCycle' })
class AcademicCycleConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string' || value.length > QUERY_VALUE_MAX_CHARS) return false;
    const year = leadingInteger(value);
    return year !== null && isKnownAcademicCycle(year);
  }
  defaultMessage(args: ValidationArguments): string {
    return `${quoted(args.value)} is not a valid academic cycle year`;
  }
}

@ValidatorConstraint({ name: 'status' })
class StatusConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    // The repeated form (`status[]=…`, or `status` sent twice) is not validated (docs/reference/API-FACTS.md §14.1).
    return Array.isArray(value) || (STATUS_FILTERS as readonly unknown[]).includes(value);
  }
  defaultMessage(args: ValidationArguments): string {
    return `${quoted(args.value)} is not a valid status`;
  }
}

@ValidatorConstraint({ name: 'since' })
class SinceConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length <= QUERY_VALUE_MAX_CHARS && parseSince(value) !== null;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${quoted(args.value)} is not a valid date`;
  }
}

@ValidatorConstraint({ name: 'asOf' })
class AsOfConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return parseAsOf(value) !== null;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${quoted(args.value)} is not a valid ISO 8601 instant (a date and a time with Z or an offset)`;
  }
}

/**
 * Most trainees on one page of GET /trainees: 500 (the reference has no maximum, docs/reference/API-FACTS.md §14.1;
 * ours bounds the cost of one answer, docs/DESIGN.md ruling 14). More answers the list's 422.
 */
export const PER_PAGE_MAX = 500;

/** Largest page read: any larger page is past the last one (404), and `(page - 1) * per_page` stays a safe integer. */
export const PAGE_MAX = Math.floor(Number.MAX_SAFE_INTEGER / PER_PAGE_MAX);

@ValidatorConstraint({ name: 'perPage' })
class PerPageConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    // Zero, negative and non-numeric values are not validated: they give an empty page (docs/reference/API-FACTS.md §14.1).
    const n = typeof value === 'string' ? leadingInteger(value) : null;
    return n === null || n <= PER_PAGE_MAX;
  }
  defaultMessage(): string {
    return `must be less than or equal to ${PER_PAGE_MAX}`;
  }
}

/** Query parameters of GET /trainees as sent (docs/spec/trainee-records-api.md "GET /trainees"; docs/reference/API-FACTS.md §14.1). */
export class ListTraineesParams {
  @IsOptional()
  @Validate(AcademicCycleConstraint)
  academic_cycle?: string;

  @IsOptional()
  @Validate(StatusConstraint)
  status?: string | string[];

  @IsOptional()
  @Validate(SinceConstraint)
  since?: string;

  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'is not included in the list' })
  sort_order?: string;

  @IsOptional()
  @Validate(PerPageConstraint)
  per_page?: string;

  @IsOptional()
  @Validate(AsOfConstraint)
  as_of?: string;

  @IsOptional()
  @MaxLength(QUERY_VALUE_MAX_CHARS, { message: `is too long (maximum is ${QUERY_VALUE_MAX_CHARS} characters)` })
  has_trn?: string;

  page?: string;
}

/** A validated list query and the instant it is asked at (`as_of`), null for now. */
export interface ListRequest extends TraineeListQuery {
  asOf: Date | null;
}

/**
 * Validates the raw query string object and returns the read-model query. Empty values count as
 * absent. With `as_of` (an instant at or before `now`), the query is the one the list would have
 * run at that instant: `today` (the default cycle and the status filters' date) is the instant's
 * UTC date. Throws {@link ListQueryInvalid} with every bad parameter's messages.
 */
export function toListQuery(raw: Record<string, unknown>, ukprn: string, today: string, now: Date = new Date()): ListRequest {
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const v = key.endsWith('[]') && !Array.isArray(value) ? [value] : value;
    if (v === '' || v === undefined) continue;
    plain[name] = Array.isArray(v) && name !== 'status' ? v[v.length - 1] : v;
  }
  const params = plainToInstance(ListTraineesParams, plain);
  const errors = validateSync(params, { skipMissingProperties: false, forbidUnknownValues: false });
  const byParam: Record<string, string[]> = {};
  for (const e of errors) byParam[e.property] = Object.values(e.constraints ?? {});
  const asOf = params.as_of !== undefined && !byParam.as_of ? parseAsOf(params.as_of) : null;
  if (asOf && asOf.getTime() > now.getTime()) byParam.as_of = ['must not be in the future'];
  if (Object.keys(byParam).length > 0) throw new ListQueryInvalid(byParam);
  if (asOf) today = utcDateOf(asOf);
  const statuses =
    params.status === undefined
      ? undefined
      : (Array.isArray(params.status) ? params.status : [params.status]).filter((s): s is StatusFilter =>
          (STATUS_FILTERS as readonly string[]).includes(s),
        );
  const page = Number.parseInt(String(params.page ?? '1'), 10);
  const perPage = params.per_page === undefined ? 50 : Number.parseInt(String(params.per_page), 10);
  return {
    ukprn,
    academicCycle: params.academic_cycle ? (leadingInteger(params.academic_cycle) as number) : currentAcademicCycle(today),
    statuses,
    since: params.since ? (parseSince(params.since) as string) : undefined,
    hasTrn: params.has_trn === undefined ? undefined : params.has_trn === 'true',
    // A page too large to count exactly is past the last page (404), never a value a store cannot bind.
    page: Number.isNaN(page) || page < 1 ? 1 : Math.min(page, PAGE_MAX),
    perPage: Number.isNaN(perPage) || perPage < 1 ? 0 : perPage,
    sortOrder: params.sort_order === 'asc' ? 'asc' : 'desc',
    today,
    asOf,
  };
}
