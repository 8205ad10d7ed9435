import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';

/**
 * "Discard what you entered?" before a form with unsaved input is cancelled or closed: Keep
 * editing goes back to the form, Discard drops the input. `nested`: inside another modal (a
 * drawer), kept in its tree so that modal does not hide it.
 */
export function DiscardDialog(props: {
  open: boolean;
  onKeep: () => void;
  onDiscard: () => void;
  nested?: boolean;
}) {
  const intl = useIntl();
  const t = (id: 'form.discardTitle' | 'form.discardText' | 'form.keepEditing' | 'form.discard') =>
    intl.formatMessage({ id });
  return (
    <Dialog.Root
      open={props.open}
      role="alertdialog"
      placement="center"
      onOpenChange={(e) => {
        if (!e.open) props.onKeep();
      }}
    >
      <Portal disabled={props.nested}>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="discard-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('form.discardTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{t('form.discardText')}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={props.onKeep}>
                {t('form.keepEditing')}
              </Button>
              <Button colorPalette="red" onClick={props.onDiscard}>
                {t('form.discard')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
