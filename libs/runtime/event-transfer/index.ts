export { ImportFileInvalid, ImportTargetNotEmpty, exportEvents, importEvents } from './event-transfer';
