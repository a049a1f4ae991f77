import type { BodyOf } from '@rhizome/contracts/endpoint';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { api } from '../../lib/api.ts';

/** Saves a workflow's exported document as a .json file. */
export async function downloadWorkflow(id: string, name: string): Promise<void> {
  const exported = await api.call(workflowEndpoints.export, { params: { workflow_id: id } });
  const url = URL.createObjectURL(new Blob([JSON.stringify(exported.data, null, 2)], { type: 'application/json' }));
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

type ImportBody = BodyOf<typeof workflowEndpoints.import>;

/**
 * Creates a workflow from an exported .json file, renamed " (imported)" when its name is taken. A file
 * that is not JSON is refused before sending, the API checks the rest; a rhizome.workflow definition
 * saved by earlier versions is sent as it is.
 */
export async function importWorkflow(file: File) {
  let document: unknown;
  try {
    document = JSON.parse(await file.text());
  } catch {
    throw new Error(`${file.name} is not a JSON file`);
  }
  const isDefinition = typeof document === 'object' && document !== null && 'format' in document;
  const body = isDefinition ? (document as ImportBody) : { workflow_data: document as object, on_duplicate: 'rename' };
  return api.call(workflowEndpoints.import, { body: body as ImportBody });
}
