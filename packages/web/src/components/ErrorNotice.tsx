import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** A failure shown where it happened, with a way to try again. */
export function ErrorNotice({
  message,
  onRetry,
  title = 'Something went wrong',
}: {
  message: string;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <Alert color="red" title={title} icon={<IconAlertTriangle size={18} />} role="alert">
      {message}
      {onRetry && (
        <Button variant="light" color="red" size="xs" mt="xs" display="block" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}
