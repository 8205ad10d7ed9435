import { NativeSelect } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { LOCALES, type Locale } from '../api/contract/messages';
import { localeStore } from '../i18n/locale-store';
import { notify } from './toaster';
import { intlFor } from '../i18n/intl';

export function useLocale(): Locale {
  return useSyncExternalStore(localeStore.subscribe, localeStore.get, localeStore.get);
}

/** Switches the interface language; the choice is kept under localStorage.locale. */
export function LocaleSwitch() {
  const intl = useIntl();
  const locale = useLocale();
  return (
    <NativeSelect.Root size="sm" width="auto">
      <NativeSelect.Field
        aria-label={intl.formatMessage({ id: 'locale.label' })}
        value={locale}
        onChange={(e) => {
          const next = e.currentTarget.value as Locale;
          localeStore.set(next);
          notify('success', intlFor(next).formatMessage({ id: 'locale.changed' }));
        }}
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
