import { Alert } from '@mantine/core';
import { RequestError } from '@rhizome/client';
import type { Failure } from '../../lib/use-submit.ts';

/** A failed submit's message, unless the API named the fields at fault (each field shows its own then). */
export function FormFailure({ failure }: { failure: Failure }) {
  if (!failure || (failure instanceof RequestError && failure.issues.length > 0)) return null;
  return (
    <Alert color="red" role="alert">
      {typeof failure === 'string' ? failure : failure.message}
    </Alert>
  );
}
