export { importSchoolsCsv } from './import-schools';
export { SCHOOL_DIRECTORY, type SchoolDirectory } from './school-directory.port';
