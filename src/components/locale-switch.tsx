import { NativeSelect } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { LOCALES, type Locale } from '../api/contract/messages';
import { localeStore } from '../i18n/locale-store';
import { notify } from './toaster';
import { currentIntl, intlFor } from '../i18n/intl';
import { loadMessages } from '../i18n/messages';

export function useLocale(): Locale {
  return useSyncExternalStore(localeStore.subscribe, localeStore.get, localeStore.get);
}

/**
 * Switches the interface language (kept under localStorage.locale) once its catalogue has loaded,
 * with the success message (docs/domain.md §13); a catalogue that cannot load leaves the language as it is.
 */
export async function switchLocale(next: Locale): Promise<void> {
  if (next === localeStore.get() || !LOCALES.includes(next)) return;
  try {
    await loadMessages(next);
  } catch {
    notify('error', currentIntl().formatMessage({ id: 'locale.loadFailed' }));
    return;
  }
  localeStore.set(next);
  notify('success', intlFor(next).formatMessage({ id: 'locale.changed' }));
}

/** The language switch. */
export function LocaleSwitch() {
  const intl = useIntl();
  const locale = useLocale();
  return (
    <NativeSelect.Root size="sm" width="auto">
      <NativeSelect.Field
        aria-label={intl.formatMessage({ id: 'locale.label' })}
        value={locale}
        onChange={(e) => void switchLocale(e.currentTarget.value as Locale)}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l}>
            {intl.formatMessage({ id: l === 'zh-CN' ? 'locale.zhCN' : 'locale.enUS' })}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
