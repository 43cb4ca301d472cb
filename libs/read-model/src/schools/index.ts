export * from './school-directory.port';
export * from './sqlite-school-directory';
export * from './import-schools';
