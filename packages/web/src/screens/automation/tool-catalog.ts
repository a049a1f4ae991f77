import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { api } from '../../lib/api.ts';
import { humanise } from '../../lib/format.ts';
import {
  loadAllUserTools,
  loadAllWorkflows,
  type SystemTool,
  type UserTool,
  type Workflow,
} from './automation-data.ts';

/** Everything a step can run: the built-in tools, your own tools, and the workflows (run as a step). */
export interface ToolCatalog {
  systemTools: SystemTool[];
  userTools: UserTool[];
  workflows: Workflow[];
}

export async function loadToolCatalog(signal?: AbortSignal): Promise<ToolCatalog> {
  const [systemTools, userTools, workflows] = await Promise.all([
    api.call(toolEndpoints.systemList, { signal }),
    loadAllUserTools(signal),
    loadAllWorkflows(signal),
  ]);
  return { systemTools, userTools, workflows };
}

/** The name a person knows a step's tool by; its id made readable while the catalog loads or when the tool is gone. */
export function toolNameOf(catalog: ToolCatalog | undefined, type: string, id: string): string {
  const known =
    type === 'system_tool'
      ? catalog?.systemTools.find((tool) => tool.id === id)?.name
      : type === 'user_tool'
        ? catalog?.userTools.find((tool) => tool.id === id)?.name
        : catalog?.workflows.find((workflow) => workflow.id === id)?.name;
  return known ?? humanise(id.replace(/\./g, ' '));
}

/** What kind of thing a step runs, in words. */
export const toolKindNames: Record<string, string> = {
  system_tool: 'built-in tool',
  user_tool: 'your tool',
  workflow: 'workflow',
};
