import { InvalidArgumentError } from 'commander';

/** Parses an option that must be a whole number of at least 1 (a wrong one is a usage error). */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return number;
}

/** Collects a repeatable option's values. */
export const repeated = (value: string, all: string[]) => [...all, value];
