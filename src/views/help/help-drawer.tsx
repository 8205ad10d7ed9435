import {
  Box,
  Button,
  CloseButton,
  Drawer,
  Heading,
  HStack,
  Input,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import type { Article } from '../../api/contract/content';
import { useArea } from '../../app/actors/areas';
import { HELP_CATEGORIES, readingArea, type HelpCategory } from '../../app/actors/reading';
import { useListActor } from '../../app/hooks/use-list';
import { FormField } from '../../components/form-field';
import { LoadFailed } from '../../components/load-failed';
import { LoadingSpinner } from '../../components/loading-spinner';
import { lastPage } from '../../machines/list';
import { ArticleDate, ArticleText } from '../shared/article-reader';
import { useT } from '../shared/use-t';

const CATEGORY_LABEL = { help: 'help.categoryHelp', tutorial: 'help.categoryTutorial' } as const;

/**
 * The help centre (docs/domain.md "Articles and agreements"), loaded on the navbar's Help
 * button's first click: the domain's published help articles and tutorials, one category at a
 * time, searched by title, each opened to read in the drawer. Every signed-in role reads it.
 */
export default function HelpDrawer(props: { open: boolean; onClose: () => void }) {
  const { open, onClose } = props;
  const t = useT();
  const { help } = useArea(readingArea);
  const list = useListActor(help);
  const applied = list.query.filters;
  const [keyword, setKeyword] = useState(applied.keyword);
  const [reading, setReading] = useState<Article | null>(null);
  const pages = lastPage(list.total, list.query.limit);

  // Each opening shows the list as it is now.
  useEffect(() => {
    if (open) help.send({ type: 'RELOAD' });
  }, [open, help]);

  const show = (category: HelpCategory) => list.setFilters({ category, keyword });

  return (
    <Drawer.Root
      open={open}
      placement="end"
      size="md"
      onOpenChange={(e) => {
        if (!e.open) onClose();
      }}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="help-drawer">
            <Drawer.Header>
              <Drawer.Title>{t('help.title')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {reading ? (
                <Stack gap="3" as="article" aria-labelledby="help-article-title">
                  <Box>
                    <Button size="xs" variant="outline" onClick={() => setReading(null)}>
                      {t('help.back')}
                    </Button>
                  </Box>
                  <Heading as="h3" size="md" id="help-article-title">
                    {reading.title}
                  </Heading>
                  <ArticleText article={reading} />
                </Stack>
              ) : (
                <Stack gap="3">
                  <HStack gap="1" role="group" aria-label={t('help.categories')}>
                    {HELP_CATEGORIES.map((category) => (
                      <Button
                        key={category}
                        size="xs"
                        variant={applied.category === category ? 'solid' : 'outline'}
                        aria-pressed={applied.category === category}
                        onClick={() => show(category)}
                      >
                        {t(CATEGORY_LABEL[category])}
                      </Button>
                    ))}
                  </HStack>
                  <HStack
                    as="form"
                    role="search"
                    aria-label={t('help.search')}
                    gap="2"
                    alignItems="flex-end"
                    onSubmit={(e) => {
                      e.preventDefault();
                      show(applied.category);
                    }}
                  >
                    <Box flex="1">
                      <FormField label={t('help.keyword')}>
                        <Input
                          value={keyword}
                          onChange={(e) => setKeyword(e.currentTarget.value)}
                        />
                      </FormField>
                    </Box>
                    <Button type="submit" variant="outline">
                      {t('filter.search')}
                    </Button>
                  </HStack>
                  {list.failed ? (
                    <LoadFailed onRetry={list.reload} />
                  ) : list.loading && list.rows.length === 0 ? (
                    <LoadingSpinner label={t('help.loading')} alignSelf="center" />
                  ) : list.rows.length === 0 ? (
                    <Text color="fg.muted" textAlign="center" paddingY="6">
                      {t('help.empty')}
                    </Text>
                  ) : (
                    <Box
                      as="ul"
                      listStyleType="none"
                      aria-busy={list.loading}
                      aria-label={t(CATEGORY_LABEL[applied.category])}
                    >
                      {list.rows.map((row) => (
                        <Stack as="li" key={row.id} gap="0" paddingY="2" borderBottomWidth="1px">
                          <Button
                            variant="plain"
                            size="sm"
                            paddingX="0"
                            justifyContent="flex-start"
                            whiteSpace="normal"
                            textAlign="start"
                            height="auto"
                            onClick={() => setReading(row)}
                          >
                            {row.title}
                          </Button>
                          <ArticleDate article={row} />
                        </Stack>
                      ))}
                    </Box>
                  )}
                  {pages > 1 && (
                    <HStack justify="space-between">
                      <Button
                        size="xs"
                        variant="outline"
                        disabled={list.query.page <= 1}
                        onClick={() => help.send({ type: 'SET_PAGE', page: list.query.page - 1 })}
                      >
                        {t('notifications.previous')}
                      </Button>
                      <Text fontSize="sm">
                        {t('notifications.page', { page: list.query.page, pages })}
                      </Text>
                      <Button
                        size="xs"
                        variant="outline"
                        disabled={list.query.page >= pages}
                        onClick={() => help.send({ type: 'SET_PAGE', page: list.query.page + 1 })}
                      >
                        {t('notifications.next')}
                      </Button>
                    </HStack>
                  )}
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
