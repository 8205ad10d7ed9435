import { Box, Button, Heading, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useId, useState } from 'react';
import type { Article } from '../../api/contract/content';
import { useArea } from '../../app/actors/areas';
import { readingArea } from '../../app/actors/reading';
import { useLoadActor } from '../../app/hooks/use-load';
import { LoadFailed } from '../../components/load-failed';
import { ArticleDate, ArticleDialog } from './article-reader';
import { useT } from './use-t';

/**
 * The latest published notices of the domain (docs/domain.md "Articles and agreements"), on the
 * work bench and the admin home: their titles and dates, each opened to read in a dialog.
 */
export function NoticeBoard() {
  const t = useT();
  const heading = useId();
  const { data, loading, failed, reload } = useLoadActor(useArea(readingArea).notices, {
    fresh: true,
  });
  const [open, setOpen] = useState<Article | null>(null);
  const rows = data?.list ?? [];
  return (
    <Stack as="section" gap="3" aria-labelledby={heading} data-testid="notices">
      <Heading as="h2" size="md" id={heading}>
        {t('noticeBoard.title')}
      </Heading>
      {failed ? (
        <LoadFailed onRetry={reload} />
      ) : loading && !data ? (
        <Skeleton height="16" />
      ) : rows.length === 0 ? (
        <Text color="fg.muted">{t('noticeBoard.empty')}</Text>
      ) : (
        <Box as="ul" listStyleType="none" borderWidth="1px" borderRadius="md" bg="bg.panel">
          {rows.map((row) => (
            <HStack
              as="li"
              key={row.id}
              justify="space-between"
              gap="3"
              paddingX="3"
              paddingY="2"
              borderBottomWidth="1px"
              _last={{ borderBottomWidth: 0 }}
            >
              <Button
                variant="plain"
                size="sm"
                paddingX="0"
                minWidth="0"
                justifyContent="flex-start"
                aria-haspopup="dialog"
                onClick={() => setOpen(row)}
              >
                <Text as="span" truncate>
                  {row.title}
                </Text>
              </Button>
              <ArticleDate article={row} />
            </HStack>
          ))}
        </Box>
      )}
      <ArticleDialog article={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
