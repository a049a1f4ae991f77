import { ApiError } from '@rhizome/contracts/errors';

/** A package refused before anything is written: 400 VALIDATION_ERROR naming the problem, the `file` field in details. */
export function invalidPackage(message: string): ApiError {
  return ApiError.badRequest(`Invalid CCX package: ${message}`, 'file');
}
