import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body, Nullable, Timestamp } from './common.ts';

const tag = 'auth';
const Username = Type.String({ minLength: 3, maxLength: 64 });
const Password = Type.String({ minLength: 8, maxLength: 128 });
const UsernameBody = Type.Object({ username: Type.String() });
const ApiKeySummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});

export const authEndpoints = {
  status: endpoint({
    method: 'GET',
    path: '/auth/status',
    tag,
    public: true,
    status: 200,
    summary: 'Whether setup is needed and whether the request carries a valid session cookie',
    response: Type.Object({
      setup_needed: Type.Boolean(),
      authenticated: Type.Boolean(),
      username: Nullable(Type.String()),
    }),
  }),
  setup: endpoint({
    method: 'POST',
    path: '/auth/setup',
    tag,
    public: true,
    status: 201,
    errors: [409, 422, 429],
    summary: 'Create the single operator account (only while setup is needed); sets the session cookie',
    body: Body({ username: Username, password: Password }),
    response: UsernameBody,
  }),
  login: endpoint({
    method: 'POST',
    path: '/auth/login',
    tag,
    public: true,
    status: 200,
    errors: [401, 409, 422, 429],
    summary: 'Log in; sets the session cookie',
    body: Body({ username: Type.String(), password: Type.String() }),
    response: UsernameBody,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/auth/logout',
    tag,
    status: 204,
    summary: 'End every session: increments session_epoch and clears the cookie',
  }),
  verify: endpoint({
    method: 'GET',
    path: '/auth/verify',
    tag,
    public: true,
    status: 200,
    errors: [401],
    summary: 'Proxy auth_request target: 200 with X-Auth-User, or 401 (not for application code)',
  }),
  me: endpoint({
    method: 'GET',
    path: '/auth/me',
    tag,
    status: 200,
    errors: [401],
    summary: 'The authenticated username',
    response: UsernameBody,
  }),
  password: endpoint({
    method: 'POST',
    path: '/auth/password',
    tag,
    status: 204,
    errors: [401, 403, 422],
    summary: 'Change the password; every session ends',
    body: Body({ old_password: Type.String(), new_password: Password }),
  }),
  username: endpoint({
    method: 'POST',
    path: '/auth/username',
    tag,
    status: 200,
    errors: [401, 403, 422],
    summary: 'Change the username; earlier sessions end and a fresh cookie is issued',
    body: Body({ password: Type.String(), new_username: Username }),
    response: UsernameBody,
  }),
  createKey: endpoint({
    method: 'POST',
    path: '/auth/keys',
    tag,
    status: 201,
    errors: [401, 422],
    summary: 'Create an API key; the plaintext key is shown only in this response',
    body: Body({ name: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.Object({ id: Type.String(), name: Type.String(), key: Type.String(), created_at: Timestamp }),
  }),
  listKeys: endpoint({
    method: 'GET',
    path: '/auth/keys',
    tag,
    status: 200,
    errors: [401],
    summary: 'API keys without secret material',
    response: Type.Array(ApiKeySummary),
  }),
  revokeKey: endpoint({
    method: 'DELETE',
    path: '/auth/keys/{key_id}',
    tag,
    status: 204,
    errors: [401, 404],
    summary: 'Revoke an API key; it is refused at once',
    params: Type.Object({ key_id: Type.String() }),
  }),
};
