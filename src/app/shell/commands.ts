import type { Locale } from '../../api/contract/messages';
import { switchLocale as switchTo } from '../../components/locale-switch';
import type { MessageId } from '../../i18n/messages';
import type { AppActors } from '../actors/actors-context';

/**
 * User commands, registered once and reused by the navbar, the user menu, the keyboard and the
 * command palette (docs/decisions.md, after excalidraw's actions).
 */
export interface Command {
  id: string;
  label: MessageId;
  keywords?: string;
  perform: (actors: AppActors) => void;
}

const switchLocale = (to: Locale): Command => ({
  id: `locale:${to}`,
  label: to === 'zh-CN' ? 'command.localeZh' : 'command.localeEn',
  keywords: to,
  // Spec §1: a success message is shown on change (as the navbar's language switch does).
  perform: () => void switchTo(to),
});

export const COMMANDS: readonly Command[] = [
  {
    id: 'theme',
    label: 'command.toggleTheme',
    keywords: 'dark light',
    perform: ({ settings }) => settings.send({ type: 'TOGGLE_THEME' }),
  },
  {
    id: 'settings',
    label: 'command.openSettings',
    perform: ({ settings }) => settings.send({ type: 'OPEN_DRAWER' }),
  },
  switchLocale('zh-CN'),
  switchLocale('en-US'),
  {
    id: 'logout',
    label: 'shell.logout',
    keywords: 'logout sign out',
    perform: ({ auth }) => auth.send({ type: 'LOGOUT' }),
  },
];

export function commandById(id: string): Command {
  const command = COMMANDS.find((c) => c.id === id);
  if (!command) throw new Error(`unknown command ${id}`);
  return command;
}
