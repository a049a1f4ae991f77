import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@rhizome/core/logging';
import { toApiError } from '../http/errors.ts';

/**
 * A failed call as the tool's error result (`isError`): the API's error envelope with its HTTP status, so
 * an agent reads the same `{error, message, details}` a REST client would. Faults of ours are logged.
 */
export function toolError(error: unknown, toolName: string, logger: Logger): CallToolResult {
  const apiError = toApiError(error);
  if (apiError.status >= 500)
    logger.error(`mcp tool ${toolName}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ status: apiError.status, ...apiError.toBody() }) }],
  };
}
