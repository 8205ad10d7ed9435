/**
 * The inline script of login.html, bundled at build time into a minified IIFE
 * (build/inline-script.ts) and allowed by its CSP hash, which the server computes from the
 * emitted page. It runs before any of the console's modules: it picks the pre-rendered variant
 * for this visitor (locale, remembered account), applies the stored theme and colour weak as the
 * console will, holds a submit and notes a button clicked until the console takes over
 * (prerender-handover.ts). Any doubt (another path, a stored session, no storage) drops the copy:
 * the console renders as usual. Keep its imports small: all of them end up in the page.
 */
import { STORAGE_KEYS } from '../../api/contract/storage-keys';
import { DEFAULT_LOCALE } from '../../api/contract/messages';
import { storedLocale } from '../../i18n/locale-store';
import { PRERENDER_ID, variantName } from '../../prerender/compose';
import {
  applyColorWeakToDocument,
  applyThemeToDocument,
  storedLook,
} from '../theme/document-theme';

function showVariant(copy: HTMLElement): void {
  const storage = localStorage; // throws when storage is disabled: no copy then
  if (
    location.pathname !== '/login' ||
    storage.getItem(STORAGE_KEYS.token) ||
    sessionStorage.getItem(STORAGE_KEYS.token)
  ) {
    throw new Error('the console decides this visit');
  }
  const locale = storedLocale();
  const account = storage.getItem(STORAGE_KEYS.rememberedAccount);
  const variant = variantName(locale, account !== null);
  if (variant !== variantName(DEFAULT_LOCALE, false)) {
    const template = document.getElementById(`${PRERENDER_ID}-${variant}`) as HTMLTemplateElement;
    copy.replaceChildren(template.content.cloneNode(true));
  }
  if (account) copy.querySelector<HTMLInputElement>('input[name=account]')!.value = account;
  const look = storedLook(storage.getItem(STORAGE_KEYS.layoutSettings));
  applyThemeToDocument(look.theme);
  if (look.colorWeak) applyColorWeakToDocument(true);
  document.documentElement.lang = locale;
  copy.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      copy.dataset.submitted = '1';
    },
    true,
  );
  copy.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element).closest?.('main button');
      if (button instanceof HTMLButtonElement && button.type !== 'submit') {
        copy.dataset.clicked = String([...copy.querySelectorAll('main button')].indexOf(button));
      }
    },
    true,
  );
}

const copy = document.getElementById(PRERENDER_ID)!;
try {
  showVariant(copy);
} catch {
  copy.remove();
}
