import { createContext, type ReactNode, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { FluentProvider, webDarkTheme, webLightTheme } from '@fluentui/react-components';

/** What the user chose: follow the system setting, or always light, or always dark. */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_STORAGE_KEY = 'svc.console.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

const isChoice = (v: unknown): v is ThemeChoice => v === 'system' || v === 'light' || v === 'dark';

/** The stored choice; storage may be unavailable (private mode, a policy), then the system decides. */
function readChoice(): ThemeChoice {
  try {
    const v = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isChoice(v) ? v : 'system';
  } catch {
    return 'system';
  }
}

function subscribeDark(onChange: () => void): () => void {
  const mq = window.matchMedia(DARK_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
const systemDark = () => window.matchMedia(DARK_QUERY).matches;

interface ThemeState {
  choice: ThemeChoice;
  /** Whether the dark theme is showing (the choice, or the system's setting under 'system'). */
  dark: boolean;
  setChoice(choice: ThemeChoice): void;
}

const ThemeContext = createContext<ThemeState>({ choice: 'system', dark: false, setChoice: () => {} });

/** The console's theme choice and whether it is dark, with the setter the theme menu uses. */
export const useTheme = () => useContext(ThemeContext);

/**
 * Fluent's light or dark theme around the whole console, following the system setting unless the user chose one
 * (remembered in localStorage). The document itself gets the theme's background and `color-scheme`, so scroll bars,
 * form controls and the area outside the app never stay white in the dark theme.
 */
export function ThemeRoot({ children }: { children: ReactNode }) {
  const [choice, setChoiceState] = useState<ThemeChoice>(readChoice);
  const osDark = useSyncExternalStore(subscribeDark, systemDark, () => false);
  const dark = choice === 'dark' || (choice === 'system' && osDark);
  const theme = dark ? webDarkTheme : webLightTheme;

  useEffect(() => {
    const root = document.documentElement;
    root.style.colorScheme = dark ? 'dark' : 'light';
    root.style.backgroundColor = theme.colorNeutralBackground1;
    root.dataset.theme = dark ? 'dark' : 'light';
  }, [dark, theme]);

  const state = useMemo<ThemeState>(
    () => ({
      choice,
      dark,
      setChoice: (next) => {
        setChoiceState(next);
        try {
          window.localStorage.setItem(THEME_STORAGE_KEY, next);
        } catch {
          // Not remembered when storage is refused; the choice still holds for this page.
        }
      },
    }),
    [choice, dark],
  );

  return (
    <ThemeContext.Provider value={state}>
      <FluentProvider theme={theme} style={{ height: '100%' }}>
        {children}
      </FluentProvider>
    </ThemeContext.Provider>
  );
}
