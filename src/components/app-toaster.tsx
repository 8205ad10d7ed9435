import { Portal, Spinner, Stack, Toast, Toaster } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { toaster } from './toaster-store';

/** Shows the notices of `notify` (mounted with the first notice: see providers.tsx). */
export default function AppToaster() {
  const intl = useIntl();
  return (
    <Portal>
      {/* The region's name in the person's language (the library's default is English). */}
      <Toaster
        toaster={toaster}
        insetInline={{ mdDown: '4' }}
        aria-label={intl.formatMessage({ id: 'notices.region' }, { hotkey: 'Alt+T' })}
      >
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} role={toast.type === 'error' ? 'alert' : 'status'}>
            {toast.type === 'loading' ? (
              <Spinner size="sm" color="brand.solid" />
            ) : (
              <Toast.Indicator />
            )}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
