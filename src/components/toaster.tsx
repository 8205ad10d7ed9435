import { Portal, Spinner, Stack, Toast, Toaster, createToaster } from '@chakra-ui/react';

export const toaster = createToaster({ placement: 'top', pauseOnPageIdle: true, max: 5 });

export type NoticeType = 'error' | 'success' | 'info' | 'loading' | 'warning';

/** Shows a notice; returns its id so a loading notice can be replaced by its outcome. */
export function notify(type: NoticeType, text: string, durationMs = 3000, id?: string): string {
  return toaster.create({
    // An `id: undefined` key would override the id zag generates and crash the toast machine.
    ...(id === undefined ? {} : { id }),
    type,
    title: text,
    duration: type === 'loading' ? undefined : durationMs,
  });
}

export function AppToaster() {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
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
