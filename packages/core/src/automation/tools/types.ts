import type { Settings } from '@rhizome/contracts/settings';
import type { EmbeddingService } from '../../providers/index.ts';
import type { LlmService } from '../../providers/index.ts';
import type { VectorSink } from '../../search/index.ts';
import type { Db } from '../../storage/index.ts';
import type { JsonSchema } from '../json-schema.ts';

export type ToolCategory = 'ai' | 'data' | 'http' | 'logic' | 'templates';

/** The database and model ports an execution runs with. */
export interface ExecutionPorts {
  db: Db;
  database: string;
  settings: Settings;
  llm: LlmService;
  embeddings: EmbeddingService;
  /** The node vector index of this database (worker side). */
  nodeVectors?: VectorSink;
}

/** What a tool may use while it runs one step of an execution. */
export interface ToolContext extends ExecutionPorts {
  /** Aborted when the execution is cancelled or the step times out. */
  signal: AbortSignal;
  executionId: string;
  /** Runs a workflow nested in the current execution and returns its outputs (logic.loop). */
  runWorkflow(workflowId: string, inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The step asked for a thinking model (`thinking_mode`). */
  thinking: boolean;
}

/**
 * A built-in tool: its identity, its JSON input and output schemas, and the code that runs it. The
 * engine validates the input (interpolated, defaults filled) against `inputSchema` before `run`.
 */
export interface SystemToolDefinition<Input = Record<string, unknown>> {
  id: string;
  category: ToolCategory;
  name: string;
  description: string;
  version: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(input: Input, context: ToolContext): Promise<Record<string, unknown>>;
}

/** A tool failure worth no retry: bad input, a refused URL, a JSON answer that does not parse. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export function defineTool<Input>(definition: SystemToolDefinition<Input>): SystemToolDefinition {
  return definition as unknown as SystemToolDefinition;
}
