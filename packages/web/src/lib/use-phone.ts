import { useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** True below the `sm` breakpoint, where the navigation is a drawer and tables become lists of cards. */
export function usePhone(): boolean {
  const theme = useMantineTheme();
  // Read at once (not after a first wide render), so a phone never flashes the desktop table.
  return useMediaQuery(`(max-width: calc(${theme.breakpoints.sm} - 0.1px))`, undefined, {
    getInitialValueInEffect: false,
  });
}
