import { InvalidArgumentError, type Command } from 'commander';

/** Parses an option that must be a whole number of at least 1 (a wrong one is a usage error). */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return number;
}

/** Collects a repeatable option's values. */
export const repeated = (value: string, all: string[]) => [...all, value];

const databaseFlags = '-d, --database <name>';
const databaseHelp = "act on this database instead of the server's active one";

/**
 * Gives every command under `group` (or `group` itself when it has none) `-d/--database`, which sends each
 * of its requests to that database. A command whose `-d` means something else gets the long form only, and
 * one that already takes `--database` keeps its own.
 */
export function offerDatabaseOption(group: Command): void {
  if (group.commands.length > 0) {
    for (const command of group.commands) offerDatabaseOption(command);
    return;
  }
  const options = group.options;
  if (options.some((option) => option.long === '--database')) return;
  const shortTaken = options.some((option) => option.short === '-d');
  group.option(shortTaken ? '--database <name>' : databaseFlags, databaseHelp);
}
