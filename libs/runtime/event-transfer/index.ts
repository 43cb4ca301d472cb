export {
  ImportFileInvalid,
  ImportTargetNotEmpty,
  exportEvents,
  importEvents,
  type AttachmentTransfer,
  type DataKeyTransfer,
  type ExportedAttachment,
  type ExportedDataKey,
} from './event-transfer';
