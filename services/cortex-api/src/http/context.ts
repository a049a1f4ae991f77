import type { Request } from 'express';
import type { Identity } from '@rhizome/auth';
import type { OpenDatabase } from '@rhizome/core/databases/manager';

/** What the API layer attaches to a request before any handler runs. */
export interface RequestState {
  identity: Identity | null;
  clientAddress: string;
  /** The active database at the moment the request arrived; fixed for the whole request. */
  database?: Promise<OpenDatabase>;
}

const states = new WeakMap<Request, RequestState>();

export function requestState(req: Request): RequestState {
  let state = states.get(req);
  if (!state) {
    state = { identity: null, clientAddress: req.socket.remoteAddress ?? 'unknown' };
    states.set(req, state);
  }
  return state;
}
