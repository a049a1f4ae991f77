export {
  copyDatabase,
  CopyRefusal,
  databaseChecksum,
  databaseNames,
  describeLocation,
  heldDataOf,
  overallChecksum,
  type CopyOptions,
  type CopyPhase,
  type CopyProgress,
  type CopyRefusalReason,
  type CopyReport,
  type DatabaseLocation,
  type TableReport,
} from './copy.ts';
export { copyDatabases, parseStore, type CopyRequest, type StoreArgument } from './request.ts';
