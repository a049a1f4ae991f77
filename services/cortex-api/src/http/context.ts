import type { Request } from 'express';
import type { Identity } from '@rhizome/auth';

/** What the API layer attaches to a request before any handler runs. */
export interface RequestState {
  identity: Identity | null;
  clientAddress: string;
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
