import { DEFAULT_LOCALE, LOCALES, type Locale } from '../api/contract/messages';
import { STORAGE_KEYS } from '../api/contract/storage-keys';

/** The user's locale choice, kept under `localStorage.locale` (contract decision). */
const KEY = STORAGE_KEYS.locale;
const listeners = new Set<() => void>();

/** The stored locale choice, or the default (also read by login.html's inline script). */
export function storedLocale(): Locale {
  try {
    const stored = localStorage.getItem(KEY);
    return LOCALES.includes(stored as Locale) ? (stored as Locale) : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

let current: Locale = storedLocale();

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
