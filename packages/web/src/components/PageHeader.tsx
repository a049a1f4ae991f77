import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';

/** The title row of a screen, with its main actions on the right. */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" gap="sm">
      <div>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" fz="sm" mt={2}>
            {description}
          </Text>
        )}
      </div>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
