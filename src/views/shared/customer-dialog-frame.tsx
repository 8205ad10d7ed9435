import { Alert, Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { ValidatedForm } from '../../components/validated-form';
import { formatText } from '../../i18n/intl';
import type { CustomerDialogActor, useDialogState } from './use-dialog-state';

/**
 * The frame of every customer dialog: a modal form whose submit shows progress; after a failure
 * the server's sentence with Retry (same payload) and Back to the form. It stays open while its
 * call is under way.
 */
export function CustomerDialogFrame(props: {
  open: boolean;
  title: string;
  submitLabel: string;
  submitting: boolean;
  failed: boolean;
  error: string | null;
  onSubmit: () => void | Promise<void>;
  onRetry: () => void;
  onBack: () => void;
  onClose: () => void;
  /** Destructive actions (delete, disable) show a red submit button. */
  danger?: boolean;
  /** The dialog's width (default: Chakra's `md`). */
  size?: 'md' | 'lg' | 'xl';
  testId?: string;
  children: ReactNode;
}) {
  const intl = useIntl();
  const t = (id: 'form.cancel' | 'form.close' | 'customers.retry' | 'customers.back') =>
    intl.formatMessage({ id });
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(e) => {
        if (!e.open && !props.submitting) props.onClose();
      }}
      closeOnInteractOutside={!props.submitting}
      placement="center"
      scrollBehavior="inside"
      size={props.size}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={props.testId}>
            {/* A flex column, so that with scrollBehavior="inside" the body scrolls, not the footer. */}
            <ValidatedForm
              style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' }}
              onSubmit={() => {
                if (!props.failed && !props.submitting) void props.onSubmit();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>{props.title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {props.children}
                  {props.failed && props.error && (
                    <Alert.Root status="error" role="alert">
                      <Alert.Indicator />
                      <Alert.Title>{formatText(intl, props.error)}</Alert.Title>
                    </Alert.Root>
                  )}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                {props.failed ? (
                  <>
                    <Button variant="outline" onClick={props.onBack}>
                      {t('customers.back')}
                    </Button>
                    <Button onClick={props.onRetry}>{t('customers.retry')}</Button>
                  </>
                ) : (
                  <>
                    <Button variant="outline" onClick={props.onClose} disabled={props.submitting}>
                      {t('form.cancel')}
                    </Button>
                    <Button
                      type="submit"
                      colorPalette={props.danger ? 'red' : undefined}
                      loading={props.submitting}
                      loadingText={props.submitLabel}
                      aria-busy={props.submitting}
                    >
                      {props.submitLabel}
                    </Button>
                  </>
                )}
              </Dialog.Footer>
            </ValidatedForm>
            <Dialog.CloseTrigger asChild disabled={props.submitting}>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** The frame's props that come from the dialog's actor. */
export function frameProps<T, P, R, F, G>(
  actor: CustomerDialogActor<T, P, R, F, G>,
  state: ReturnType<typeof useDialogState<T, P, R, F, G>>,
) {
  return {
    open: state.open,
    submitting: state.submitting,
    failed: state.failed,
    error: state.error,
    onRetry: () => actor.send({ type: 'RETRY' }),
    onBack: () => actor.send({ type: 'BACK' }),
    onClose: () => actor.send({ type: 'CLOSE' }),
  };
}
