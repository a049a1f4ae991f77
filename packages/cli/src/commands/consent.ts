import readline from 'node:readline/promises';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import type { Io } from '../output.ts';

/**
 * Asks on a terminal before something that cannot be undone; a declined question ends the command with nothing changed.
 * With no terminal there is nobody to ask, so the command refuses and names the flag that gives consent up front.
 */
export async function confirmOrRefuse(io: Io, action: string, flag: string): Promise<void> {
  if (!process.stdin.isTTY || !io.interactive)
    throw new CliFailure(
      `refusing to ${action} without confirmation: pass ${flag} (there is no terminal to ask on)`,
      ExitCode.usage,
    );
  const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
  const answer = await prompt.question(`${action[0].toUpperCase()}${action.slice(1)}? [y/N] `);
  prompt.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliFailure('cancelled: nothing changed');
}
