import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body, Nullable, OneOf, PageNumber } from './common.ts';

const tag = 'registry';
const RegistryUrl = Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2048 })));
const packageTypes = ['FULL', 'TEMPLATES', 'KNOWLEDGE', 'WORKFLOWS', 'MIXED'] as const;
const sortValues = ['relevance', 'stars', 'downloads', 'newest', 'updated', 'name'] as const;

/** Registry objects carry times in Unix milliseconds (docs/api-conventions.md#timestamps). */
const PackageInfo = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  owner_username: Type.String(),
  owner_name: Type.String(),
  owner_id: Type.String(),
  is_public: Type.Boolean(),
  package_type: OneOf(packageTypes),
  star_count: Type.Integer(),
  version_count: Type.Integer(),
  download_count: Type.Integer(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

const DeviceCodeResponse = Type.Object({
  device_code: Type.String(),
  user_code: Type.String(),
  verification_uri: Type.String(),
  verification_uri_complete: Nullable(Type.String()),
  expires_in: Type.Integer(),
  interval: Type.Integer(),
});

const RegistryAuthResponse = Type.Object({
  success: Type.Boolean(),
  username: Nullable(Type.String()),
  registry_url: Type.String(),
  message: Type.String(),
});

export const registryEndpoints = {
  device: endpoint({
    method: 'POST',
    path: '/registry/auth/device',
    tag,
    status: 200,
    errors: [400, 401, 403, 404, 408, 503],
    summary: 'Start a device-authorization login at the registry (RFC 8628): open verification_uri and enter user_code',
    body: Body({
      registry_url: RegistryUrl,
      client_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
      scope: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    }),
    response: DeviceCodeResponse,
  }),
  poll: endpoint({
    method: 'POST',
    path: '/registry/auth/poll',
    tag,
    status: 200,
    errors: [400, 403, 408, 503],
    summary:
      'Poll the device login once: success false while pending, credentials stored once approved; 403 denied, 408 expired',
    body: Body({
      device_code: Type.String({ minLength: 1, maxLength: 2048 }),
      registry_url: RegistryUrl,
      client_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    }),
    response: RegistryAuthResponse,
  }),
  login: endpoint({
    method: 'POST',
    path: '/registry/auth/login',
    tag,
    status: 200,
    errors: [400, 401, 503],
    summary: 'Log in to the registry with a registry username and password',
    body: Body({
      username: Type.String({ minLength: 1, maxLength: 256 }),
      password: Type.String({ minLength: 1, maxLength: 1024 }),
      registry_url: RegistryUrl,
    }),
    response: RegistryAuthResponse,
  }),
  token: endpoint({
    method: 'POST',
    path: '/registry/auth/token',
    tag,
    status: 200,
    errors: [422],
    summary: 'Store a registry access token (JWT) obtained elsewhere',
    body: Body({
      token: Type.String({ minLength: 1, maxLength: 16_384 }),
      username: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
      registry_url: RegistryUrl,
    }),
    response: RegistryAuthResponse,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/registry/auth/logout',
    tag,
    status: 200,
    summary: 'Remove the stored registry credentials',
    response: RegistryAuthResponse,
  }),
  status: endpoint({
    method: 'GET',
    path: '/registry/auth/status',
    tag,
    status: 200,
    summary: 'Whether registry credentials are stored (no network request)',
    response: Type.Object({
      authenticated: Type.Boolean(),
      username: Nullable(Type.String()),
      registry_url: Nullable(Type.String()),
      token_present: Type.Boolean(),
    }),
  }),
  search: endpoint({
    method: 'GET',
    path: '/registry/search',
    tag,
    status: 200,
    errors: [400, 401, 403, 404, 408, 422, 503],
    summary: "Search the registry's packages",
    query: Type.Object({
      query: Type.Optional(Type.String({ default: '', maxLength: 500 })),
      page: Type.Optional(PageNumber),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
      sort_by: Type.Optional(OneOf(sortValues)),
      is_public: Type.Optional(Nullable(Type.Boolean())),
      owner_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
      package_type: Type.Optional(Nullable(OneOf(packageTypes))),
    }),
    response: Type.Object({
      packages: Type.Array(PackageInfo),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
  info: endpoint({
    method: 'GET',
    path: '/registry/r/{owner}/{name}',
    tag,
    status: 200,
    errors: [400, 401, 403, 404, 408, 503],
    summary: 'One package of the registry',
    params: Type.Object({
      owner: Type.String({ minLength: 1, maxLength: 200 }),
      name: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    response: PackageInfo,
  }),
  download: endpoint({
    method: 'GET',
    path: '/registry/r/{owner}/{name}/download',
    tag,
    status: 200,
    errors: [400, 401, 403, 404, 408, 503],
    produces: 'application/zip',
    summary: "A package's .ccx file from the registry, with the server's registry login, without importing it",
    params: Type.Object({
      owner: Type.String({ minLength: 1, maxLength: 200 }),
      name: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    query: Type.Object({
      version: Type.Optional(Type.String({ minLength: 1, maxLength: 100, default: 'latest' })),
    }),
  }),
  import: endpoint({
    method: 'POST',
    path: '/registry/import',
    tag,
    status: 202,
    errors: [400, 401, 403, 404, 408, 503],
    summary: 'Download a package from the registry and import it into the active database (merged) in the background',
    body: Body({
      owner_username: Type.String({ minLength: 1, maxLength: 200 }),
      repo_name: Type.String({ minLength: 1, maxLength: 200 }),
      version: Type.Optional(Type.String({ minLength: 1, maxLength: 100, default: 'latest' })),
    }),
    response: Type.Object({
      message: Type.String(),
      task_id: Type.String(),
      status: Type.Literal('queued'),
      owner_username: Type.String(),
      repo_name: Type.String(),
      version: Type.String(),
    }),
  }),
  upload: endpoint({
    method: 'POST',
    path: '/registry/upload',
    tag,
    status: 201,
    errors: [400, 401, 403, 413, 422, 503],
    consumes: 'multipart/form-data',
    files: { field: 'file', multiple: false },
    summary: 'Publish a .ccx package to the registry (Authorization: Bearer <registry token>, else the stored login)',
    query: Type.Object({
      public: Type.Optional(Type.Boolean({ default: true })),
      message: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    }),
    response: PackageInfo,
  }),
};
