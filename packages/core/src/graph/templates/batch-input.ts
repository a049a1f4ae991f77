import { validationIssues } from '@rhizome/contracts/validation-issues';
import type { ValidateFunction } from 'ajv';
import { ajvFor } from '@rhizome/contracts/ajv';
import {
  TemplateBatchUpdateData,
  TemplateCreateBody,
  TemplateDeleteData,
  type TemplateCreate,
  type TemplateUpdate,
} from '@rhizome/contracts/api/templates';
import { Invalid } from '@rhizome/contracts/errors';

const ajv = ajvFor('batchItem');

const validators = {
  create: ajv.compile(TemplateCreateBody),
  update: ajv.compile(TemplateBatchUpdateData),
  delete: ajv.compile(TemplateDeleteData),
};

export type BatchInput =
  | { operation: 'create'; data: TemplateCreate }
  | { operation: 'update'; id: string; data: TemplateUpdate }
  | { operation: 'delete'; id: string; force: boolean };

/**
 * The `data` of one batch operation checked against the body of the matching single endpoint (update
 * and delete data also carry the template `id`); Invalid when it does not match.
 */
export function parseBatchInput(operation: string, data: unknown): BatchInput {
  if (operation !== 'create' && operation !== 'update' && operation !== 'delete') {
    throw new Invalid([
      { loc: ['operation'], msg: `Unknown operation '${operation}' (create, update or delete)`, type: 'enum' },
    ]);
  }
  const copy = structuredClone(data ?? {});
  const validate: ValidateFunction = validators[operation];
  if (!validate(copy)) throw new Invalid(validationIssues(validate.errors ?? [], ['data']));
  if (operation === 'create') return { operation, data: copy as TemplateCreate };
  const { id, force, ...rest } = copy as { id: string; force?: boolean } & TemplateUpdate;
  if (operation === 'delete') return { operation, id, force: force ?? false };
  return { operation, id, data: rest };
}
