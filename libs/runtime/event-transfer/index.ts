export {
  ImportFileInvalid,
  ImportTargetNotEmpty,
  exportEvents,
  importEvents,
  type DataKeyTransfer,
  type ExportedDataKey,
} from './event-transfer';
