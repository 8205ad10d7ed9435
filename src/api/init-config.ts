/** The system init settings (admin; docs/domain.md §System init). */
import type {
  CertKind,
  InitConfig,
  InitConfigGroup,
  InitConfigSetBody,
  InitConfigTestReply,
} from './contract/init-config';
import { get, post, type RequestOptions } from './http';

/** One group's values (plain values as they are, secrets as their state), or every group's. */
export function getInitConfig(group?: InitConfigGroup, options?: RequestOptions) {
  return get<InitConfig>('/init_config/get_config', group ? { group } : {}, options);
}

/** Saves a group's values (an empty secret is left unchanged) and clears the keys in `clear`. */
export function setInitConfig(body: InitConfigSetBody, options?: RequestOptions) {
  return post<InitConfig>('/init_config/set_config', body, options);
}

/** Uploads the WeChat Pay private key or certificate (a PEM file). */
export function uploadCert(kind: CertKind, file: File, options?: RequestOptions) {
  const form = new FormData();
  // The kind first: the server reads the fields in order.
  form.append('kind', kind);
  form.append('file', file, file.name);
  return post<InitConfig>('/init_config/upload_cert', form, options);
}

/** Runs a group's connection check on the server. */
export function testInitConfig(group: InitConfigGroup, options?: RequestOptions) {
  return post<InitConfigTestReply>('/init_config/test', { group }, options);
}
