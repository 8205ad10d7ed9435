/**
 * Digital-human video templates (`/digital_human/template_*`, docs/domain.md §10 "Video
 * templates"); contract: ./contract/dh-templates.ts. The platform's templates and the caller's
 * own; the admin changes the platform's, the others their own.
 */
import type {
  DhTemplateAddBody,
  DhTemplateAddReply,
  DhTemplateDeleteBody,
  DhTemplateDeleteReply,
  DhTemplateEditBody,
  DhTemplateFromVideoBody,
  DhTemplateList,
  DhTemplateListQuery,
} from './contract/dh-templates';
import { get, post, type RequestOptions } from './http';

/** The platform's templates and the caller's own, narrowed by scope and ratio. */
export function getDhTemplates(
  query: DhTemplateListQuery = {},
  options?: RequestOptions,
): Promise<DhTemplateList> {
  return get<DhTemplateList>('/digital_human/template_list', { ...query }, options);
}

export function addDhTemplate(
  body: DhTemplateAddBody,
  options?: RequestOptions,
): Promise<DhTemplateAddReply> {
  return post<DhTemplateAddReply>('/digital_human/template_add', body, options);
}

export function editDhTemplate(body: DhTemplateEditBody, options?: RequestOptions): Promise<null> {
  return post<null>('/digital_human/template_edit', body, options);
}

export function deleteDhTemplates(
  body: DhTemplateDeleteBody,
  options?: RequestOptions,
): Promise<DhTemplateDeleteReply> {
  return post<DhTemplateDeleteReply>('/digital_human/template_delete', body, options);
}

/** A template of one's own with a done video's settings; its output is the demo. */
export function addDhTemplateFromVideo(
  body: DhTemplateFromVideoBody,
  options?: RequestOptions,
): Promise<DhTemplateAddReply> {
  return post<DhTemplateAddReply>('/digital_human/template_from_video', body, options);
}
