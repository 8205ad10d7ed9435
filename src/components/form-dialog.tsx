import { Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { ValidatedForm } from './validated-form';

/** A modal form: title, fields, cancel and submit; the submit button shows progress. */
export function FormDialog(props: {
  open: boolean;
  title: string;
  submitLabel: string;
  submitting: boolean;
  onClose: () => void;
  onSubmit: () => void | Promise<void>;
  children: ReactNode;
  /**
   * Dialogs layered over this one (a picker): in its tree, so its modality does not hide them,
   * and outside its form.
   */
  layers?: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(e) => {
        if (!e.open) props.onClose();
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <ValidatedForm onSubmit={props.onSubmit}>
              <Dialog.Header>
                <Dialog.Title>{props.title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">{props.children}</Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={props.onClose}>
                  {intl.formatMessage({ id: 'form.cancel' })}
                </Button>
                <Button
                  type="submit"
                  loading={props.submitting}
                  loadingText={props.submitLabel}
                  aria-busy={props.submitting}
                >
                  {props.submitLabel}
                </Button>
              </Dialog.Footer>
            </ValidatedForm>
            {props.layers}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'form.close' })} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
