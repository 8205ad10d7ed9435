/** Platform branding and settings (docs/domain.md §21). */
import type { ConfigPair, SimpleConfigGroup, SystemInfo } from './contract/system';
import { get, type RequestOptions } from './http';

/** Branding of `domain` (the current host) merged over the platform defaults. */
export function getSystemInfo(domain: string, options?: RequestOptions): Promise<SystemInfo> {
  return get<SystemInfo>('/platform/get_system_info', { domain }, options);
}

/** Name/value pairs of the given setting groups, e.g. `['show_config', 'resource']`. */
export function getSimpleConfig(
  groups: readonly SimpleConfigGroup[],
  options?: RequestOptions,
): Promise<ConfigPair[]> {
  return get<ConfigPair[]>('/platform/get_simple_config', { group: groups.join(',') }, options);
}
