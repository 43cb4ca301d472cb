/** Calendar dates `YYYY-MM-DD`, proleptic Gregorian, with our own arithmetic: never the JS clock or time zone (API-FACTS §6.5). */

/** A calendar date as numbers; month 1–12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function formatDate(d: CalendarDate): string {
  return `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;
}

/** No validation. */
export function splitDate(date: string): CalendarDate {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) };
}

/** Days since 0000-03-01 of a date (H. Hinnant's days_from_civil, shifted); used for week dates. */
function dayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe;
}

function fromDayNumber(z: number): CalendarDate {
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** ISO weekday 1 (Monday) … 7 (Sunday). */
function isoWeekday(year: number, month: number, day: number): number {
  // 0000-03-01 (day number 0) was a Wednesday (ISO 3).
  return ((((dayNumber(year, month, day) + 2) % 7) + 7) % 7) + 1;
}

function weeksInIsoYear(year: number): number {
  const jan1 = isoWeekday(year, 1, 1);
  return jan1 === 4 || (jan1 === 3 && isLeapYear(year)) ? 53 : 52;
}

const CALENDAR_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})$/;
const CALENDAR_BASIC = /^(\d{4})(\d{2})(\d{2})$/;
const ORDINAL = /^(\d{4})-?(\d{3})$/;
const WEEK = /^(\d{4})-?[Ww](\d{2})-?([1-7])$/;

/**
 * `value` as `YYYY-MM-DD` when it is a real date in a form the API accepts (docs/reference/API-FACTS.md §6.5), trimmed: `YYYY-MM-DD`,
 * `YYYYMMDD`, ordinal `YYYY-DDD`/`YYYYDDD`, week `YYYY-Www-D`/`YYYYWwwD`; else null (date-times, two-digit years, numbers too).
 */
export function parseIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (s.length < 7 || s.length > 10) return null;
  let m = CALENDAR_EXTENDED.exec(s) ?? CALENDAR_BASIC.exec(s);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
    return formatDate({ year, month, day });
  }
  m = ORDINAL.exec(s);
  if (m) {
    const year = Number(m[1]);
    const ordinal = Number(m[2]);
    if (ordinal < 1 || ordinal > (isLeapYear(year) ? 366 : 365)) return null;
    return formatDate(fromDayNumber(dayNumber(year, 1, 1) + ordinal - 1));
  }
  m = WEEK.exec(s);
  if (m) {
    const year = Number(m[1]);
    const week = Number(m[2]);
    const weekday = Number(m[3]);
    if (week < 1 || week > weeksInIsoYear(year)) return null;
    // Week 1 holds 4 January; its Monday starts the ISO year.
    const jan4 = dayNumber(year, 1, 4);
    const monday1 = jan4 - (isoWeekday(year, 1, 4) - 1);
    return formatDate(fromDayNumber(monday1 + (week - 1) * 7 + (weekday - 1)));
  }
  return null;
}

export function isRealCalendarDate(value: unknown): boolean {
  return parseIsoDate(value) !== null;
}

/** The day is clamped to the month's length (2024-01-31 + 1 month = 2024-02-29), as Ruby's `Date#>>` does. */
export function addMonths(date: string, months: number): string {
  const d = splitDate(date);
  const index = d.year * 12 + (d.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return formatDate({ year, month, day: Math.min(d.day, daysInMonth(year, month)) });
}

/** 29 February becomes 28 February in common years. */
export function addYears(date: string, years: number): string {
  return addMonths(date, years * 12);
}

export function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}
