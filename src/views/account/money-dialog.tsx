import {
  Alert,
  Box,
  Button,
  CloseButton,
  DataList,
  Dialog,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { formatText } from '../../i18n/intl';

/**
 * The frame of the money dialogs (exchange, transfer): one modal whose body and buttons follow
 * the machine's step. It cannot be closed while a call is under way (`busy`).
 */
export function MoneyDialog(props: {
  open: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  /** The form step submits with Enter. */
  onSubmit?: () => void;
  footer: ReactNode;
  children: ReactNode;
}) {
  const intl = useIntl();
  const content = (
    <>
      <Dialog.Header>
        <Dialog.Title>{props.title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">{props.children}</Stack>
      </Dialog.Body>
      <Dialog.Footer>{props.footer}</Dialog.Footer>
    </>
  );
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(e) => {
        if (!e.open && !props.busy) props.onClose();
      }}
      closeOnEscape={!props.busy}
      closeOnInteractOutside={!props.busy}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {props.onSubmit ? (
              <form
                noValidate
                onSubmit={(e: FormEvent) => {
                  e.preventDefault();
                  props.onSubmit?.();
                }}
              >
                {content}
              </form>
            ) : (
              content
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton
                size="sm"
                disabled={props.busy}
                aria-label={intl.formatMessage({ id: 'form.close' })}
              />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A summary of label / value pairs (the confirmation and the result). */
export function Summary(props: { label: string; items: [string, ReactNode][] }) {
  return (
    <Box role="group" aria-label={props.label}>
      <DataList.Root orientation="horizontal">
        {props.items.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Box>
  );
}

/** Why a submission failed; when the reply was lost, that a retry is safe. */
export function Failure(props: { error: string | null; uncertain: boolean }) {
  const intl = useIntl();
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{formatText(intl, props.error ?? 'http.requestError')}</Alert.Title>
        {props.uncertain && (
          <Alert.Description>
            <Text>{intl.formatMessage({ id: 'property.uncertain' })}</Text>
          </Alert.Description>
        )}
      </Alert.Content>
    </Alert.Root>
  );
}

/** The buttons of each step, named alike in both dialogs. */
export function StepButtons(props: {
  step: 'editing' | 'confirming' | 'submitting' | 'failed' | 'done' | 'closed';
  uncertain: boolean;
  confirmLabel: string;
  send: (type: 'BACK' | 'SUBMIT' | 'RETRY' | 'AGAIN' | 'CLOSE') => void;
}) {
  const intl = useIntl();
  const t = (id: 'form.cancel' | 'form.close' | 'property.next' | 'property.back') =>
    intl.formatMessage({ id });
  const { step, send } = props;
  const submitting = step === 'submitting';
  switch (step) {
    case 'editing':
      return (
        <>
          <Button variant="outline" onClick={() => send('CLOSE')}>
            {t('form.cancel')}
          </Button>
          <Button type="submit">{t('property.next')}</Button>
        </>
      );
    case 'confirming':
    case 'submitting':
      return (
        <>
          <Button variant="outline" disabled={submitting} onClick={() => send('BACK')}>
            {t('property.back')}
          </Button>
          <Button
            loading={submitting}
            loadingText={props.confirmLabel}
            aria-busy={submitting}
            onClick={() => send('SUBMIT')}
          >
            {props.confirmLabel}
          </Button>
        </>
      );
    case 'failed':
      return (
        <>
          {props.uncertain ? (
            <Button variant="outline" onClick={() => send('CLOSE')}>
              {t('form.close')}
            </Button>
          ) : (
            <Button variant="outline" onClick={() => send('BACK')}>
              {t('property.back')}
            </Button>
          )}
          <Button onClick={() => send('RETRY')}>
            {intl.formatMessage({ id: 'property.retry' })}
          </Button>
        </>
      );
    case 'done':
      return (
        <>
          <Button variant="outline" onClick={() => send('AGAIN')}>
            {intl.formatMessage({ id: 'property.again' })}
          </Button>
          <Button onClick={() => send('CLOSE')}>{t('form.close')}</Button>
        </>
      );
    default:
      return null;
  }
}
