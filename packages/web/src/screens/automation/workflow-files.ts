import type { BodyOf } from '@rhizome/contracts/endpoint';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { api } from '../../lib/api.ts';

/** Saves a workflow's exported definition as a .json file. */
export async function downloadWorkflow(id: string, name: string): Promise<void> {
  const definition = await api.call(workflowEndpoints.export, { params: { workflow_id: id } });
  const url = URL.createObjectURL(new Blob([JSON.stringify(definition, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${
    name
      .trim()
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'workflow'
  }.workflow.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** Creates a workflow from an exported .json file; a file that is not JSON is refused before sending, the API checks the rest. */
export async function importWorkflow(file: File) {
  let definition: unknown;
  try {
    definition = JSON.parse(await file.text());
  } catch {
    throw new Error(`${file.name} is not a JSON file`);
  }
  return api.call(workflowEndpoints.import, { body: definition as BodyOf<typeof workflowEndpoints.import> });
}
