import { ActionIcon, Menu, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { useAction } from '../lib/data/use-action.ts';

const choices: { value: MantineColorScheme; label: string; icon: typeof IconSun }[] = [
  { value: 'light', label: 'Light', icon: IconSun },
  { value: 'dark', label: 'Dark', icon: IconMoon },
  { value: 'auto', label: 'Follow the system', icon: IconDeviceDesktop },
];

/**
 * Light, dark or the system's scheme; an explicit choice is also saved as settings.dark_mode for other browsers.
 * The choices are one group of radio items (Mantine's plain item is always a `menuitem`, on which
 * `aria-checked` is not allowed), the current one checked; a choice closes the menu.
 */
export function ColorSchemeMenu() {
  const saveScheme = useAction(settingsEndpoints.patch);
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const Current = choices.find((choice) => choice.value === colorScheme)?.icon ?? IconDeviceDesktop;
  const choose = (value: MantineColorScheme) => {
    setColorScheme(value);
    if (value !== 'auto') void saveScheme.run({ body: { dark_mode: value === 'dark' } }).catch(() => undefined);
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Colour scheme">
          <Current size={18} stroke={1.7} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.RadioGroup value={colorScheme} onChange={(value) => choose(value as MantineColorScheme)}>
          <div role="group" aria-label="Colour scheme">
            {choices.map(({ value, label, icon: Icon }) => (
              <Menu.RadioItem
                key={value}
                value={value}
                closeMenuOnClick
                rightSection={<Icon size={16} aria-hidden />}
                fw={colorScheme === value ? 600 : undefined}
              >
                {label}
              </Menu.RadioItem>
            ))}
          </div>
        </Menu.RadioGroup>
      </Menu.Dropdown>
    </Menu>
  );
}
