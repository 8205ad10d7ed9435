import { CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { Article } from '../../api/contract/content';
import { StoredHtml } from '../../components/stored-html';
import { useT } from './use-t';

/** When an article was last changed, as its readers see it. */
export function ArticleDate(props: { article: Article }) {
  const intl = useIntl();
  return (
    <Text as="span" fontSize="xs" color="fg.muted">
      {intl.formatDate(props.article.updated_at, { dateStyle: 'medium' })}
    </Text>
  );
}

/** An article's date and its body as the server stored it (sanitised on save). */
export function ArticleText(props: { article: Article }) {
  return (
    <Stack gap="3">
      <ArticleDate article={props.article} />
      <StoredHtml html={props.article.content} />
    </Stack>
  );
}

/** An article opened to read (a notice from the work bench or the admin home), in a dialog. */
export function ArticleDialog(props: { article: Article | null; onClose: () => void }) {
  const t = useT();
  const { article } = props;
  return (
    <Dialog.Root
      open={article !== null}
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
          <Dialog.Content data-testid="article-reader">
            {article && (
              <>
                <Dialog.Header>
                  <Dialog.Title>{article.title}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <ArticleText article={article} />
                </Dialog.Body>
              </>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
