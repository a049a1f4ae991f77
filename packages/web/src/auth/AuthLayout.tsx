import type { ReactNode } from 'react';
import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Logo } from '../components/Logo.tsx';

/** The centred card of the setup and sign-in screens. */
export function AuthLayout({
  title,
  subtitle,
  width = 420,
  children,
}: {
  title: string;
  subtitle: string;
  width?: number;
  children: ReactNode;
}) {
  return (
    <Box component="main" mih="100vh" bg="var(--mantine-color-body)">
      <Center mih="100vh" p="md">
        <Stack w="100%" maw={width} gap="lg">
          <Group gap="xs" justify="center">
            <Logo size={36} />
            <Text fw={700} fz="xl">
              Rhizome
            </Text>
          </Group>
          <Paper withBorder shadow="sm" p="xl" radius="lg">
            <Stack gap="md">
              <div>
                <Title order={1} fz="h2">
                  {title}
                </Title>
                <Text c="dimmed" fz="sm" mt={4}>
                  {subtitle}
                </Text>
              </div>
              {children}
            </Stack>
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
