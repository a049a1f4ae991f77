import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';

export function NotFound() {
  return (
    <Stack align="flex-start" gap="sm">
      <Title order={1}>Page not found</Title>
      <Text c="dimmed">This address does not lead to a screen of Rhizome.</Text>
      <Button component={Link} to="/">
        Go to the dashboard
      </Button>
    </Stack>
  );
}
