import { DEFAULT_LOCALE, LOCALES, type Locale } from '../api/contract/messages';

/** The user's locale choice, kept under `localStorage.locale` (contract decision). */
const KEY = 'locale';
const listeners = new Set<() => void>();

function read(): Locale {
  try {
    const stored = localStorage.getItem(KEY);
    return LOCALES.includes(stored as Locale) ? (stored as Locale) : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

let current: Locale = read();

export const localeStore = {
  get: (): Locale => current,
  set(next: Locale) {
    if (next === current) return;
    current = next;
    try {
      localStorage.setItem(KEY, next);
    } catch {
      /* private mode: keep the choice for this page only */
    }
    if (typeof document !== 'undefined') document.documentElement.lang = next;
    listeners.forEach((l) => l());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
