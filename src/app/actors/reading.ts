/**
 * What every signed-in user reads of the platform's own pages (docs/domain.md "Articles and
 * agreements"): the latest published notices (the work bench and the admin home) and the help
 * centre's articles (help or tutorials, a title search, paged), both from
 * `GET /article/published` (the domain's readers' rows, whatever the caller's role). The rows
 * carry their stored bodies, so opening one shows it without another call.
 */
import type { Article, ArticlePage } from '../../api/contract/content';
import * as api from '../../api/content';
import { defineArea, lazyActors } from './areas';
import { listActor, loadActor } from './factories';

export interface ReadingEndpoints {
  getPublishedArticles: typeof api.getPublishedArticles;
}

/** Notices shown on the work bench and the admin home. */
export const NOTICE_COUNT = 5;
/** Articles per page of the help centre. */
export const HELP_PAGE_SIZE = 10;

export const HELP_CATEGORIES = ['help', 'tutorial'] as const;
export type HelpCategory = (typeof HELP_CATEGORIES)[number];
export interface HelpFilters {
  category: HelpCategory;
  keyword: string;
}

function createReadingActors(e: ReadingEndpoints) {
  return lazyActors({
    // Quiet: the notices are beside the page's own figures; a failure shows in their panel.
    notices: () =>
      loadActor<ArticlePage>('notices', (signal) =>
        e.getPublishedArticles(
          { category: 'notice', page: 1, limit: NOTICE_COUNT },
          { signal, quiet: true },
        ),
      ),
    help: () =>
      listActor<HelpFilters, Article>(
        'helpCentre',
        ({ filters, page, limit }, signal) =>
          e.getPublishedArticles(
            {
              category: filters.category,
              page,
              limit,
              ...(filters.keyword.trim() ? { keyword: filters.keyword.trim() } : {}),
            },
            { signal },
          ),
        { category: 'help', keyword: '' },
        HELP_PAGE_SIZE,
      ),
  });
}

export type ReadingActors = ReturnType<typeof createReadingActors>;

export const readingArea = defineArea<ReadingEndpoints, ReadingActors>({
  key: 'reading',
  live: () => ({ getPublishedArticles: api.getPublishedArticles }),
  create: (endpoints) => createReadingActors(endpoints),
});
