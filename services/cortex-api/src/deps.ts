import type { AccountService, Verifier } from '@rhizome/auth';
import type { Platform } from '@rhizome/core/platform';
import type { AuthMode } from './http/identity.ts';

export interface CortexDeps {
  platform: Platform;
  verifier: Verifier;
  account: AccountService;
  edgeToken: string;
  authMode: AuthMode;
  /** supervisord XML-RPC URL in the stack; undefined in the embedded default. */
  supervisorUrl?: string;
}
