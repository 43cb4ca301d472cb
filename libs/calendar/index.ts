export { addMonths, addYears, isRealCalendarDate, parseIsoDate, splitDate, yearOf, type CalendarDate } from './calendar-dates';
