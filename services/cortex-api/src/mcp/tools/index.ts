import { documentTools } from './document-tools.ts';
import { extractionTools } from './extraction-tools.ts';
import { graphTools } from './graph-tools.ts';
import { graphWriteTools } from './graph-write-tools.ts';
import { nodeTools } from './node-tools.ts';
import { searchTools } from './search-tools.ts';
import { sourceTools } from './source-tools.ts';
import { templateTools } from './template-tools.ts';
import { upgradeTools } from './upgrade-tools.ts';

/** Every tool of the MCP server, read ones first; the server offers those the mode and the schema allow. */
export const allTools = [
  ...searchTools,
  ...nodeTools,
  ...graphTools,
  ...templateTools,
  ...sourceTools,
  ...graphWriteTools,
  ...documentTools,
  ...extractionTools,
  ...upgradeTools,
];
export { pendingMigrations } from './upgrade-tools.ts';
export { agentExtraction } from './extraction-tools.ts';
export { sourceProgress } from './source-tools.ts';
export { nodeView } from './node-tools.ts';
