import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';

/**
 * A text opened to read in a dialog (an article, a notice, an agreement): its title, its body,
 * a close button. Open while `title` is given; `onClose` when the reader closes it.
 */
export function ReadingDialog(props: {
  title: string | null;
  testId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const intl = useIntl();
  const { title } = props;
  return (
    <Dialog.Root
      open={title !== null}
      onOpenChange={(e) => {
        if (!e.open) props.onClose();
      }}
      placement="center"
      size="lg"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={props.testId}>
            {title !== null && (
              <>
                <Dialog.Header>
                  <Dialog.Title>{title}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>{props.children}</Dialog.Body>
              </>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={intl.formatMessage({ id: 'form.close' })} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
