import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { schemaProperties, type ObjectSchema } from '../../../components/JsonSchemaFields.tsx';
import { useEndpointEach } from '../../../lib/data/use-endpoint.ts';
import { humanise } from '../../../lib/format.ts';
import type { ToolCatalog } from '../tool-catalog.ts';
import type { ToolRef, ToolType } from './workflow-draft.ts';

/** What the builder knows of one thing a step can run: how to show it, what it takes and what it gives. */
export interface ToolInfo extends ToolRef {
  key: string;
  name: string;
  description: string;
  /** The palette group it is listed under. */
  group: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  /** Inputs a user tool fills already: a step need not give them. */
  preset: Record<string, unknown>;
}

export const toolKey = (type: ToolType, id: string) => `${type}:${id}`;

/** The input a new step starts with: each property's default. */
export function defaultInput(tool: ToolInfo): Record<string, unknown> {
  return Object.fromEntries(
    schemaProperties(tool.inputSchema)
      .filter(([name, property]) => property.default !== undefined && !(name in tool.preset))
      .map(([name, property]) => [name, property.default]),
  );
}

/** The required inputs a step of this tool must give itself. */
export const requiredInputs = (tool: ToolInfo) =>
  (tool.inputSchema.required ?? []).filter((name) => !(name in tool.preset));

/**
 * Every tool of the catalog with its schemas, keyed by `toolKey`: the built-in tools (their schemas are
 * loaded one by one), your tools (over a built-in one) and the other workflows (their input schema).
 */
export function useToolInfo(catalog: ToolCatalog | undefined, workflowId: string): Map<string, ToolInfo> | undefined {
  const details = useEndpointEach(
    toolEndpoints.systemGet,
    catalog?.systemTools.map((tool) => ({ params: { tool_id: tool.id } })),
  );
  if (!catalog || !details.data) return undefined;
  const system = new Map(details.data.map((tool) => [tool.id, tool]));
  const infos: Omit<ToolInfo, 'key'>[] = [
    ...details.data.map((tool) => ({
      tool_type: 'system_tool' as const,
      tool_id: tool.id,
      name: tool.name,
      description: tool.description,
      group: humanise(tool.category),
      inputSchema: tool.input_schema as ObjectSchema,
      outputSchema: tool.output_schema as ObjectSchema,
      preset: {},
    })),
    ...catalog.userTools.map((tool) => ({
      tool_type: 'user_tool' as const,
      tool_id: tool.id,
      name: tool.name,
      description: tool.description ?? tool.system_tool.description,
      group: 'Your tools',
      inputSchema: (system.get(tool.system_tool_id)?.input_schema ?? {}) as ObjectSchema,
      outputSchema: (system.get(tool.system_tool_id)?.output_schema ?? {}) as ObjectSchema,
      preset: tool.configuration,
    })),
    ...catalog.workflows
      .filter((workflow) => workflow.id !== workflowId)
      .map((workflow) => ({
        tool_type: 'workflow' as const,
        tool_id: workflow.id,
        name: workflow.name,
        description: workflow.description ?? 'Runs this workflow as a step.',
        group: 'Workflows',
        inputSchema: workflow.input_schema as ObjectSchema,
        outputSchema: {},
        preset: {},
      })),
  ];
  return new Map(
    infos.map((info) => [
      toolKey(info.tool_type, info.tool_id),
      { ...info, key: toolKey(info.tool_type, info.tool_id) },
    ]),
  );
}
