import { BadInput } from '@rhizome/contracts/errors';

/** A package refused before anything is written: 400 VALIDATION_ERROR naming the problem, the `file` field in details. */
export function invalidPackage(message: string): BadInput {
  return BadInput.field(`Invalid CCX package: ${message}`, 'file');
}
