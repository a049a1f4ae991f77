import type { Command } from 'commander';
import { CliFailure, failureOf, noCredentialFailure } from './exit-codes.ts';
import type { Io } from './output.ts';
import { remoteOf, type Remote, type RemoteOptions } from './remote.ts';

/** Runs commands' actions, turning what they return or throw into the process's exit code and one-line messages. */
export class CommandRunner {
  exitCode = 0;

  constructor(readonly io: Io) {}

  /** An action on this machine (the service commands): returns its exit code. */
  local<A extends unknown[]>(action: (...args: A) => Promise<number>): (...args: A) => Promise<void> {
    return async (...args) => {
      try {
        this.exitCode = await action(...args);
      } catch (error) {
        if (!(error instanceof CliFailure)) throw error;
        this.fail(error);
      }
    };
  }

  /**
   * An action against a running server: it gets the client for the server the options, the environment or
   * the login name, and the command's positional arguments and options.
   */
  remote<A extends unknown[]>(
    action: (remote: Remote, ...args: A) => Promise<number | void>,
  ): (...args: unknown[]) => Promise<void> {
    return async (...args) => {
      const command = args.at(-1) as Command;
      const remote = remoteOf(command.optsWithGlobals<RemoteOptions>(), this.io);
      try {
        this.exitCode = (await action(remote, ...(args.slice(0, -1) as A))) ?? 0;
      } catch (error) {
        this.fail((!remote.apiKey && noCredentialFailure(error, remote.url)) || failureOf(error, remote.url));
      }
    };
  }

  private fail(failure: CliFailure): void {
    this.io.err(`rhizome: ${failure.message}`);
    this.exitCode = failure.code;
  }
}
