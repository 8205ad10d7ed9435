import { loadSignedInMessages } from '../src/i18n/messages';

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

// The console loads a locale's catalogue before showing it (src/main.tsx, switchLocale); tests
// render in either locale at once, so both are loaded up front.
await Promise.all([loadSignedInMessages('en-US'), loadSignedInMessages('zh-CN')]);
