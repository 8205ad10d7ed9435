/**
 * Articles and agreements (`/article/*`, `/agreement/*`, docs/domain.md "Articles and
 * agreements"); contract: ./contract/content.ts. Bodies arrive as stored, sanitised HTML.
 */
import type {
  Agreement,
  AgreementAcceptBody,
  AgreementKind,
  AgreementListQuery,
  AgreementPage,
  AgreementSaveBody,
  Article,
  ArticleAddBody,
  ArticleEditBody,
  ArticleListQuery,
  ArticlePage,
  ArticlePublishedQuery,
} from './contract/content';
import { get, post, type RequestOptions } from './http';

export function getArticles(query: ArticleListQuery, options?: RequestOptions) {
  return get<ArticlePage>('/article/list', { ...query }, options);
}
/** What every signed-in role reads on this host: the help centre and the notices. */
export function getPublishedArticles(query: ArticlePublishedQuery, options?: RequestOptions) {
  return get<ArticlePage>('/article/published', { ...query }, options);
}
export function addArticle(body: ArticleAddBody, options?: RequestOptions) {
  return post<Article>('/article/add', body, options);
}
export function editArticle(body: ArticleEditBody, options?: RequestOptions) {
  return post<Article>('/article/edit', body, options);
}
export function deleteArticle(id: number, options?: RequestOptions) {
  return post<null>('/article/delete', { id }, options);
}
export function getAgreements(query: AgreementListQuery, options?: RequestOptions) {
  return get<AgreementPage>('/agreement/list', { ...query }, options);
}
/** The version of a kind in force on a domain (public: the login and sign-up forms link it). */
export function getAgreementInForce(kind: AgreementKind, domain: string, options?: RequestOptions) {
  return get<Agreement | null>('/agreement/detail', { kind, domain }, options);
}
export function saveAgreement(body: AgreementSaveBody, options?: RequestOptions) {
  return post<Agreement>('/agreement/save', body, options);
}
export function getPendingAgreement(options?: RequestOptions) {
  return get<Agreement | null>('/agreement/pending', undefined, options);
}
export function acceptAgreement(body: AgreementAcceptBody, options?: RequestOptions) {
  return post<{ kind: AgreementKind; version: number; accepted_at: number }>(
    '/agreement/accept',
    body,
    options,
  );
}
