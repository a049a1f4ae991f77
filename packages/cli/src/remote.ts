import { RhizomeClient } from '@rhizome/client';
import { readLogin } from './config.ts';
import type { Io } from './output.ts';

export const defaultUrl = 'http://127.0.0.1:8888';

/** The options every command talking to a server takes. */
export interface RemoteOptions {
  url?: string;
  apiKey?: string;
  json?: boolean;
  /** `-d/--database`, on the commands that take it: the database to act on instead of the server's active one. */
  database?: string;
}

export interface Remote {
  url: string;
  apiKey: string | undefined;
  client: RhizomeClient;
  json: boolean;
  io: Io;
}

/** The server and key: the options, then RHIZOME_URL / RHIZOME_API_KEY, then what `rhizome login` stored. */
export function remoteOf(options: RemoteOptions, io: Io, env: NodeJS.ProcessEnv = process.env): Remote {
  const login = readLogin(env);
  const url = (options.url || env.RHIZOME_URL || login?.url || defaultUrl).replace(/\/+$/, '');
  // An empty variable counts as unset.
  const apiKey = options.apiKey || env.RHIZOME_API_KEY || (login && login.url === url ? login.api_key : undefined);
  return {
    url,
    apiKey,
    io,
    json: options.json ?? false,
    client: new RhizomeClient({ baseUrl: `${url}/api/v1`, apiKey, database: options.database }),
  };
}
