// Light, dark or the system's choice: kept in the settings (ui.theme) and mirrored in this browser's storage so the
// first paint already has the right colours.
import { useEffect, useState } from 'react';
import type { CuratorClient } from '../client/client';

export type ThemeChoice = 'system' | 'light' | 'dark';
const key = 'skill-curator.theme';

function isChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function useTheme(client: CuratorClient): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(() => {
    const stored = localStorage.getItem(key);
    return isChoice(stored) ? stored : 'system';
  });
  useEffect(() => {
    client.call('settings.get', {}).then(
      (settings) => isChoice(settings.ui.theme) && setChoice(settings.ui.theme),
      () => undefined, // the stored choice stays
    );
  }, [client]);
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = choice === 'dark' || (choice === 'system' && media.matches);
      document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    };
    apply();
    localStorage.setItem(key, choice);
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [choice]);
  const choose = (next: ThemeChoice) => {
    setChoice(next);
    client.call('settings.update', { patch: { ui: { theme: next } } }).catch(() => undefined);
  };
  return [choice, choose];
}
