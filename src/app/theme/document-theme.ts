import type { Theme } from '../../machines/settings';

/**
 * How the settings' theme and colour weak show on the page. The console's settings actor applies
 * them (app-actors.ts) and so does login.html's inline script (src/app/boot/prerender-inline.ts)
 * before the console has loaded, so the pre-rendered page already has the stored look.
 */
export function applyThemeToDocument(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  root.style.colorScheme = theme;
}

/** Spec §4/§9: colour weak inverts the page by 80 %; off restores it. */
export function applyColorWeakToDocument(on: boolean): void {
  document.body.style.filter = on ? 'invert(80%)' : '';
}

/**
 * The theme and colour weak of stored layout settings (their JSON), as the settings machine
 * restores them (src/machines/settings.ts restoreSettings; a unit test holds the two together):
 * anything but a valid value is the default (light, off). Small on purpose: the inline script
 * carries it, and the machine module would bring XState.
 */
export function storedLook(json: string | null): { theme: Theme; colorWeak: boolean } {
  let stored: unknown = null;
  try {
    stored = JSON.parse(json ?? 'null');
  } catch {
    /* not JSON: the defaults */
  }
  const own = (key: string): unknown =>
    typeof stored === 'object' && stored !== null && Object.hasOwn(stored, key)
      ? (stored as Record<string, unknown>)[key]
      : undefined;
  return {
    theme: own('theme') === 'dark' ? 'dark' : 'light',
    colorWeak: own('colorWeak') === true,
  };
}
