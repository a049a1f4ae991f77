import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Body, Nullable } from './common.ts';

const tag = 'databases';

/** A request header naming the database the request works on instead of the active one. */
export const databaseHeader = 'x-rhizome-database';

export const DatabaseResponse = Type.Object({
  name: Type.String(),
  path: Type.String(),
  exists: Type.Boolean(),
  size: Type.Integer(),
  last_modified: Nullable(Type.String()),
});
const NameParam = Type.Object({ name: Type.String() });

export const databaseEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/databases',
    tag,
    status: 200,
    summary: 'Initialized databases, sorted by name',
    response: Type.Object({ databases: Type.Array(DatabaseResponse) }),
  }),
  current: endpoint({
    method: 'GET',
    path: '/databases/current',
    tag,
    status: 200,
    errors: [404],
    summary: 'The active database',
    response: Type.Object({ current: Type.String(), info: DatabaseResponse }),
  }),
  switch: endpoint({
    method: 'PATCH',
    path: '/databases/current',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Switch the active database; a directory lacking app.db gets one',
    body: Body({ name: Type.String({ minLength: 1 }) }),
    response: Type.Object({ success: Type.Boolean(), message: Type.String(), database: DatabaseResponse }),
  }),
  get: endpoint({
    method: 'GET',
    path: '/databases/{name}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One database',
    params: NameParam,
    response: DatabaseResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/databases',
    tag,
    status: 201,
    errors: [400, 422],
    summary: 'Create a database with its directory structure and seed data',
    body: Body({ name: Type.String() }),
    response: DatabaseResponse,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/databases/{name}',
    tag,
    status: 204,
    errors: [400],
    summary: 'Delete a database permanently (not the default or the active one)',
    params: NameParam,
  }),
};
