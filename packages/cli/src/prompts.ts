import { CliFailure, ExitCode } from './exit-codes.ts';

/** Prompts write to stderr, so that stdout stays a command's own output. */
export const promptContext = { output: process.stderr };

/** Runs prompts; Ctrl+C in one of them ends the command with exit code 130 and one line saying what stopped. */
export async function prompting<T>(what: string, ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if ((error as Error | null)?.name === 'ExitPromptError')
      throw new CliFailure(`${what} interrupted`, ExitCode.interrupted);
    throw error;
  }
}
