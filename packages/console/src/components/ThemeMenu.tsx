import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger, Tooltip } from '@fluentui/react-components';
import { DarkTheme20Regular, Desktop20Regular, WeatherMoon20Regular, WeatherSunny20Regular } from '@fluentui/react-icons';
import { type ThemeChoice, useTheme } from './ThemeRoot';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The brand bar's theme switch: System (follows the operating system), Light or Dark; the choice is remembered. */
export function ThemeMenu() {
  const { choice, setChoice } = useTheme();
  return (
    <Menu
      checkedValues={{ theme: [choice] }}
      onCheckedValueChange={(_, d) => {
        const next = d.checkedItems[0] as ThemeChoice | undefined;
        if (next) setChoice(next);
      }}
    >
      <MenuTrigger disableButtonEnhancement>
        <Tooltip content={`Theme: ${LABELS[choice]}`} relationship="label">
          <Button appearance="transparent" icon={<DarkTheme20Regular />} style={{ color: 'inherit' }} data-testid="theme-button" />
        </Tooltip>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItemRadio name="theme" value="system" icon={<Desktop20Regular />}>
            System
          </MenuItemRadio>
          <MenuItemRadio name="theme" value="light" icon={<WeatherSunny20Regular />}>
            Light
          </MenuItemRadio>
          <MenuItemRadio name="theme" value="dark" icon={<WeatherMoon20Regular />}>
            Dark
          </MenuItemRadio>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
