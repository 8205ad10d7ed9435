import { Box, Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { StoredHtml } from '../../components/stored-html';
import { agreementPromptArea } from '../actors/agreement-prompt';
import { useArea } from '../actors/areas';
import { useLoadActor } from '../hooks/use-load';

/**
 * The user agreement the signed-in user has still to accept (docs/domain.md "Articles and
 * agreements"): its stored text and "I accept". The dialog stays until it is accepted.
 */
export function AgreementPrompt() {
  const intl = useIntl();
  const area = useArea(agreementPromptArea);
  const { data } = useLoadActor(area.pending);
  const accepting = useSelector(area.accept, (s) => s.hasTag('submitting'));
  const error = useSelector(area.accept, (s) => s.context.error);
  if (!data) return null;
  return (
    <Dialog.Root open role="alertdialog" placement="center" scrollBehavior="inside" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{intl.formatMessage({ id: 'agreementPrompt.title' })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text mb="3">
                {intl.formatMessage({ id: 'agreementPrompt.what' }, { version: data.version })}
              </Text>
              <Box maxH="60vh" overflowY="auto" tabIndex={0} borderWidth="1px" p="3">
                <StoredHtml html={data.content} />
              </Box>
              {error && (
                <Text color="fg.error" mt="2">
                  {intl.formatMessage({ id: 'agreementPrompt.failed' })}
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button
                loading={accepting}
                onClick={() => area.accept.send({ type: 'SUBMIT', payload: data })}
              >
                {intl.formatMessage({ id: 'agreementPrompt.accept' })}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
