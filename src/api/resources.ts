/**
 * The resource library (`/resource/*`); contract: ./contract/resources.ts. Only the
 * caller's own resources and groups exist for it (another's answers like a missing one).
 * `resource/add` (finishing an upload) is with the uploads: ./uploads.ts.
 */
import type {
  GroupAddBody,
  GroupDeleteBody,
  GroupEditBody,
  GroupListReply,
  Resource,
  ResourceDeleteBody,
  ResourceDeleteReply,
  ResourceEditBody,
  ResourceGroup,
  ResourceListParams,
  ResourcePage,
} from './contract/resources';
import { get, post, type RequestOptions } from './http';

/** One page of the caller's resources, newest first (`group_id: 0`: the ungrouped ones). */
export function getResources(
  query: Partial<ResourceListParams>,
  options?: RequestOptions,
): Promise<ResourcePage> {
  return get<ResourcePage>('/resource/list', { ...query }, options);
}

/** Renames a resource and/or moves it to a group (`group_id: 0`: to "ungrouped"). */
export function editResource(body: ResourceEditBody, options?: RequestOptions): Promise<Resource> {
  return post<Resource>('/resource/edit', body, options);
}

/** Takes resources out of the library; a file a task still uses stays until it no longer does. */
export function deleteResources(
  body: ResourceDeleteBody,
  options?: RequestOptions,
): Promise<ResourceDeleteReply> {
  return post<ResourceDeleteReply>('/resource/delete', body, options);
}

/** The caller's groups with their counts, and the count of ungrouped resources. */
export function getGroups(options?: RequestOptions): Promise<GroupListReply> {
  return get<GroupListReply>('/resource/group_list', undefined, options);
}

export function addGroup(body: GroupAddBody, options?: RequestOptions): Promise<ResourceGroup> {
  return post<ResourceGroup>('/resource/group_add', body, options);
}

export function editGroup(body: GroupEditBody, options?: RequestOptions): Promise<ResourceGroup> {
  return post<ResourceGroup>('/resource/group_edit', body, options);
}

/** Deletes a group; its resources move to "ungrouped". */
export function deleteGroup(body: GroupDeleteBody, options?: RequestOptions): Promise<null> {
  return post<null>('/resource/group_delete', body, options);
}
