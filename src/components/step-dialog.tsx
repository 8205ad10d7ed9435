import { Alert, Box, CloseButton, DataList, Dialog, Portal, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { formatText } from '../i18n/intl';
import { ValidatedForm } from './validated-form';

/**
 * The frame of a multi-step dialog (money calls, card actions): one modal whose body and buttons
 * follow its machine's step. It cannot be closed while a call is under way (`busy`); the form
 * step submits with Enter.
 */
export function StepDialog(props: {
  open: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  onSubmit?: () => void;
  footer: ReactNode;
  children: ReactNode;
  testId?: string;
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
          <Dialog.Content data-testid={props.testId}>
            {props.onSubmit ? (
              <ValidatedForm onSubmit={props.onSubmit}>{content}</ValidatedForm>
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

/** Label / value pairs (a confirmation, a result), named as a group. */
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

/** Why a call failed: the server's sentence (or a message id), as an alert, with an optional hint. */
export function FailureAlert(props: { error: string | null; hint?: string }) {
  const intl = useIntl();
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{formatText(intl, props.error ?? 'http.requestError')}</Alert.Title>
        {props.hint && <Alert.Description>{props.hint}</Alert.Description>}
      </Alert.Content>
    </Alert.Root>
  );
}
