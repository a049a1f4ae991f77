import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { useEndpoint, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { humanise } from '../../lib/format.ts';
import type { SystemTool, UserTool, Workflow } from './automation-data.ts';

/** Everything a step can run: the built-in tools, your own tools, and the workflows (run as a step). */
export interface ToolCatalog {
  systemTools: SystemTool[];
  userTools: UserTool[];
  workflows: Workflow[];
}

/** The catalog once its three lists have loaded. */
export function useToolCatalog(): { data: ToolCatalog | undefined } {
  const systemTools = useEndpoint(toolEndpoints.systemList);
  const userTools = useEndpointPages(toolEndpoints.list);
  const workflows = useEndpointPages(workflowEndpoints.list);
  return {
    data:
      systemTools.data && userTools.data && workflows.data
        ? { systemTools: systemTools.data, userTools: userTools.data, workflows: workflows.data }
        : undefined,
  };
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
