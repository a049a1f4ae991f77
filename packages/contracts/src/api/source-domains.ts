import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, OneOf } from './common.ts';

const tag = 'sources';

const DomainName = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

/** Where a domain comes from: shipped, a drop-in file in `<data_dir>/domains/`, or stored in the active database. */
export const domainOrigins = ['builtin', 'file', 'database'] as const;

const DomainEntry = Type.Object({
  origin: OneOf(domainOrigins),
  prompt_tokens: Type.Integer(),
  domain: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'The full definition, in the shape of the built-in domain files: name, version, description, builtin, extraction_density, extraction_filtering_mode, detection, entity_guidance, relationship_guidance, entity_exclusions, examples, content_exclusions, templates, quality_scoring',
  }),
});

/**
 * Either a full definition (validated like the built-in files; `builtin` must be false) or a copy request.
 * Left open here because the definition's own schema, with its consistency rules, checks it in the domain.
 */
const DomainBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64 }),
    copy_of: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Copy this domain (built-in or custom) under `name`' }),
    ),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  },
  {
    additionalProperties: true,
    description:
      'A full domain definition, or `{copy_of, name, description?}` to copy an existing domain (a built-in one included) under a new name',
  },
);

/** What one reading of the drop-in domain files gave; part of the plugins reload answer. */
export const DomainFilesReport = Type.Object({
  directory: Type.String(),
  loaded: Type.Array(Type.String()),
  problems: Type.Array(Type.Object({ file: Type.String(), message: Type.String() })),
});

/** Custom extraction domains of the active database, beside `GET /sources/domains`. */
export const sourceDomainEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/sources/domains/{name}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One extraction domain, its full definition and where it comes from',
    params: DomainName,
    response: DomainEntry,
  }),
  create: endpoint({
    method: 'POST',
    path: '/sources/domains',
    tag,
    status: 201,
    errors: [409, 422],
    summary: 'Create a custom domain from a definition, or copy an existing one under a new name',
    body: DomainBody,
    response: DomainEntry,
  }),
  replace: endpoint({
    method: 'PUT',
    path: '/sources/domains/{name}',
    tag,
    status: 200,
    errors: [404, 409, 422],
    summary: 'Replace a custom domain (built-in and drop-in ones cannot be changed: 409)',
    params: DomainName,
    body: AnyObject,
    response: DomainEntry,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/sources/domains/{name}',
    tag,
    status: 204,
    errors: [404, 409],
    summary: 'Delete a custom domain no source still waits to be extracted with',
    params: DomainName,
  }),
};
