/**
 * The content area (/protocol/article, /protocol/agreement; docs/domain.md "Articles and
 * agreements"): the caller's articles (a list, the editor dialog's save, the delete dialog) and
 * agreement versions (a list, the new-version dialog). After a save or a delete the area shows the
 * notice and reloads the list; views only select and send.
 */
import type {
  Agreement,
  AgreementKind,
  AgreementSaveBody,
  Article,
  ArticleAddBody,
  ArticleCategory,
  ArticleStatus,
} from '../../api/contract/content';
import * as api from '../../api/content';
import { uploadPlatformImage } from '../../api/platform-images';
import { defineArea, lazyActors } from './areas';
import { dialogActor, listActor, toast, whenChanged } from './factories';
import { imageUploadActor } from './image-uploads';

export interface ContentEndpoints {
  getArticles: typeof api.getArticles;
  addArticle: typeof api.addArticle;
  editArticle: typeof api.editArticle;
  deleteArticle: typeof api.deleteArticle;
  getAgreements: typeof api.getAgreements;
  saveAgreement: typeof api.saveAgreement;
  uploadPlatformImage: typeof uploadPlatformImage;
}

export interface ArticleFilters {
  category: ArticleCategory | '';
  status: ArticleStatus | '';
  keyword: string;
}
export const NO_ARTICLE_FILTERS: ArticleFilters = { category: '', status: '', keyword: '' };
export interface AgreementFilters {
  kind: AgreementKind | '';
}

function createContentActors(e: ContentEndpoints) {
  return lazyActors(
    {
      articles: () =>
        listActor<ArticleFilters, Article>(
          'articles',
          ({ filters, page, limit }, signal) =>
            e.getArticles(
              {
                page,
                limit,
                ...(filters.category ? { category: filters.category } : {}),
                ...(filters.status ? { status: filters.status } : {}),
                ...(filters.keyword.trim() ? { keyword: filters.keyword.trim() } : {}),
              },
              { signal },
            ),
          NO_ARTICLE_FILTERS,
        ),
      /** The editor: a new article (target null) or the row's. */
      articleForm: () =>
        dialogActor<Article, ArticleAddBody, Article>('articleForm', (row, body) =>
          row ? e.editArticle({ ...body, id: row.id }) : e.addArticle(body),
        ),
      articleDelete: () =>
        dialogActor<Article, null, null>('articleDelete', (row) =>
          row ? e.deleteArticle(row.id) : Promise.resolve(null),
        ),
      agreements: () =>
        listActor<AgreementFilters, Agreement>(
          'agreements',
          ({ filters, page, limit }, signal) =>
            e.getAgreements(
              { page, limit, ...(filters.kind ? { kind: filters.kind } : {}) },
              { signal },
            ),
          { kind: '' },
        ),
      /**
       * The article's cover and the editor's inserted images (content images, docs/domain.md §8):
       * the dialog that shows them takes each uploaded image's address.
       */
      cover: () =>
        imageUploadActor('content', (purpose, file, signal) =>
          e.uploadPlatformImage(purpose, file, { signal }),
        ),
      bodyImage: () =>
        imageUploadActor('content', (purpose, file, signal) =>
          e.uploadPlatformImage(purpose, file, { signal }),
        ),
      agreementForm: () =>
        dialogActor<AgreementKind, AgreementSaveBody, Agreement>('agreementForm', (_kind, body) =>
          e.saveAgreement(body),
        ),
    },
    (_all, started) => {
      const reload = (name: 'articles' | 'agreements') => started(name)?.send({ type: 'RELOAD' });
      // A dialog closed or opened anew: no upload of the last one goes on (its image would land
      // in the next draft), nor its error.
      const openOrClosed = (s: { hasTag: (tag: 'open') => boolean }) =>
        s.hasTag('open') ? 'open' : 'closed';
      const resetUploads = () => {
        started('cover')?.send({ type: 'RESET' });
        started('bodyImage')?.send({ type: 'RESET' });
      };
      return {
        articleForm: (form) => [
          whenChanged(form, openOrClosed, resetUploads),
          whenChanged(
            form,
            (s) => s.context.completed,
            () => {
              toast('success', 'content.saved');
              reload('articles');
            },
          ),
        ],
        articleDelete: (remove) => [
          whenChanged(
            remove,
            (s) => s.context.completed,
            () => {
              toast('success', 'content.deleted');
              reload('articles');
            },
          ),
        ],
        agreementForm: (form) => [
          whenChanged(form, openOrClosed, resetUploads),
          whenChanged(
            form,
            (s) => s.context.completed,
            () => {
              toast('success', 'content.versionSaved');
              reload('agreements');
            },
          ),
        ],
      };
    },
  );
}

export type ContentActors = ReturnType<typeof createContentActors>;

export const contentArea = defineArea<ContentEndpoints, ContentActors>({
  key: 'content',
  live: () => ({
    getArticles: api.getArticles,
    addArticle: api.addArticle,
    editArticle: api.editArticle,
    deleteArticle: api.deleteArticle,
    getAgreements: api.getAgreements,
    saveAgreement: api.saveAgreement,
    uploadPlatformImage,
  }),
  create: (endpoints) => createContentActors(endpoints),
});
