/** The caller's own settings (docs/domain.md §12 "The caller's own settings"). */
import type { EditUserConfigBody, UserConfig } from './contract/user-config';
import { get, post, type RequestOptions } from './http';

export function getUserConfig(options?: RequestOptions): Promise<UserConfig> {
  return get<UserConfig>('/user_config/info', undefined, options);
}

export function editUserConfig(body: EditUserConfigBody): Promise<UserConfig> {
  return post<UserConfig>('/user_config/edit', body);
}
