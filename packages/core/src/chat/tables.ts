import type { Knex } from 'knex';
import type { ToolApprovalStatus } from '@rhizome/contracts/api/chats';
import type { ChatRow, MessageRow } from './repo.ts';

/** A tool call of a running turn waiting for (or past) the operator's decision. */
export interface ToolApprovalRow {
  chat_id: string;
  tool_call_id: string;
  turn_id: string;
  tool_name: string;
  /** JSON object. */
  arguments: string;
  status: ToolApprovalStatus;
  created_at: string;
  decided_at: string | null;
}

/** The chat feature's tables (migration 0008); only files of this folder query them. */
declare module 'knex/types/tables.js' {
  interface Tables {
    chats: ChatRow;
    /** `seq` is the rowid: assigned on insert. */
    chat_messages: Knex.CompositeTableType<MessageRow, Omit<MessageRow, 'seq'>>;
    chat_tool_approvals: ToolApprovalRow;
  }
}
