import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import { DEFAULT_LOCALE, LOCALES } from '../src/api/contract/messages';
import { resetHttp } from '../src/api/http';
import { removeAllNotices } from '../src/components/toaster';
import { localeStore } from '../src/i18n/locale-store';
import { AREA_PARTS, loadMessageParts } from '../src/i18n/messages';

/**
 * jsdom lacks a few browser APIs that Chakra (toasts, dialogs) and react-intl touch.
 * Plain `expect` only: jest-dom matchers are not installed.
 */
if (typeof window !== 'undefined') {
  if (!('ResizeObserver' in window)) {
    class ResizeObserverStub {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { value: ResizeObserverStub, writable: true });
    Object.defineProperty(globalThis, 'ResizeObserver', {
      value: ResizeObserverStub,
      writable: true,
    });
  }
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string): MediaQueryList =>
        ({
          matches: false,
          media: query,
          onchange: null,
          addListener: () => {},
          removeListener: () => {},
          addEventListener: () => {},
          removeEventListener: () => {},
          dispatchEvent: () => false,
        }) as MediaQueryList,
    });
  }
  if (!window.scrollTo || String(window.scrollTo).includes('not implemented')) {
    window.scrollTo = () => {};
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
}

// View files share a worker's modules and DOM (vitest.config.ts, project `unit`): each file starts
// from what a fresh page load has — nothing rendered, no notices, empty storage, the default
// locale, the HTTP layer unconfigured, real timers — whatever the file before it left.
localeStore.set(DEFAULT_LOCALE);
if (typeof window !== 'undefined') {
  cleanup();
  removeAllNotices();
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
}
resetHttp();
vi.useRealTimers();

// The console loads a locale's catalogue before showing it (src/main.tsx, switchLocale), and an
// area's part with its pages (src/app/routes/page-views.ts); tests render any view in either
// locale at once, so every part of both is loaded up front.
await Promise.all(LOCALES.map((locale) => loadMessageParts(AREA_PARTS, locale)));
// The recipes every lazily loaded view brings (src/app/routes/lazy.ts): loaded up front too, so no
// file ends with that import still under way (its worker's environment may be gone when it
// lands: EnvironmentTeardownError, and the files after it in the worker fail).
if (typeof window !== 'undefined') await import('../src/app/theme/theme-later');
