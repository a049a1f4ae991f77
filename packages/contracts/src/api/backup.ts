import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { OneOf, Page, PageQuery, Timestamp } from './common.ts';

const tag = 'backup';
const Filename = Type.Object({ filename: Type.String({ minLength: 1, maxLength: 255 }) });

export const BackupInfoSchema = Type.Object({
  filename: Type.String(),
  database: Type.String(),
  /** `backup`: taken on request or by the schedule; `safety`: the copy a restore or a replacing import takes first. */
  kind: OneOf(['backup', 'safety'] as const),
  size: Type.Integer(),
  created_at: Timestamp,
});

/** A backup as scripts written for the older system list it: its time as the compact YYYYMMDD_HHMMSS of the filename. */
const BackupListing = Type.Object({
  filename: Type.String(),
  size: Type.Integer(),
  created_at: Type.String({ pattern: '^\\d{8}_\\d{6}$' }),
});

const download = (path: string, summary: string) =>
  endpoint({
    method: 'GET',
    path,
    tag,
    status: 200,
    errors: [400, 404],
    produces: 'application/vnd.sqlite3',
    summary,
    params: Filename,
  });

export const backupEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/backup',
    tag,
    status: 201,
    errors: [409],
    summary: 'Back up the active database now (a consistent online copy named app_YYYYMMDD_HHMMSS.db, UTC)',
    response: BackupInfoSchema,
  }),
  list: endpoint({
    method: 'GET',
    path: '/backup',
    tag,
    status: 200,
    errors: [422],
    summary: 'Backups of the active database, newest first, with size and time',
    query: Type.Object(PageQuery),
    response: Type.Composite([Page(BackupInfoSchema), Type.Object({ backups: Type.Array(BackupListing) })]),
  }),
  download: download('/backup/{filename}', 'Download a backup file'),
  downloadAlias: download('/backup/{filename}/download', 'Download a backup file (the same as GET /backup/{filename})'),
  restore: endpoint({
    method: 'POST',
    path: '/backup/{filename}/restore',
    tag,
    status: 200,
    errors: [400, 404],
    summary:
      'Replace the active database with a backup, after a pre-restore safety backup; the vector indexes are rebuilt in the background',
    params: Filename,
    response: Type.Object({
      database: Type.String(),
      restored_from: Type.String(),
      safety_backup: BackupInfoSchema,
      vector_task_id: Type.String(),
      message: Type.String(),
    }),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/backup/{filename}',
    tag,
    status: 204,
    errors: [400, 404],
    summary: 'Delete a backup',
    params: Filename,
  }),
};
