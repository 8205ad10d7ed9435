import { Stack, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { Article } from '../../api/contract/content';
import { ReadingDialog } from '../../components/reading-dialog';
import { StoredHtml } from '../../components/stored-html';

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
  const { article } = props;
  return (
    <ReadingDialog title={article?.title ?? null} testId="article-reader" onClose={props.onClose}>
      {article && <ArticleText article={article} />}
    </ReadingDialog>
  );
}
