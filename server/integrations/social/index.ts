import type { Config } from '../../platform/config';
import type { Clock } from '../../platform/lib/clock';
import { keptSecret } from '../../platform/lib/secrets';
import { environmentLookup, type SecretFieldSpec, type SecretLookup } from '../secret-fields';
import { createDouyinPlatform } from './douyin';
import type { SocialPlatform } from './types';

export type * from './types';
export { SocialPlatformError } from './types';
export { createDouyinPlatform, douyinClientToken } from './douyin';

/** The social platforms in use (`ctx.integrations.social`). */
export interface SocialPlatforms {
  /** The real Douyin Open Platform, when `DOUYIN_CLIENT_KEY` is set. */
  readonly douyin: SocialPlatform | undefined;
  /**
   * The Douyin adapter speaking to the embedded sandbox platform at
   * `${PUBLIC_URL}/sandbox-platform`, unless `SOCIAL_SANDBOX=0`. Whether the sandbox answers now
   * is the sandbox-platform module's rule (`SOCIAL_SANDBOX=1`, or unset and the demo data).
   */
  readonly sandbox: SocialPlatform | undefined;
}

/** Where our server serves the sandbox platform (outside the API). */
export const SANDBOX_PLATFORM_PREFIX = '/sandbox-platform';
/** The sandbox platform's client_key. */
export const SANDBOX_CLIENT_KEY = 'sandbox';
const SANDBOX_SECRET_FILE = 'social-sandbox.secret';

/**
 * The sandbox platform's client_secret: `SOCIAL_SANDBOX_SECRET`, else a random one kept in
 * `DATA_DIR/social-sandbox.secret` (both the adapter and the sandbox read it).
 */
export function socialSandboxSecret(config: {
  dataDir: string;
  socialSandboxSecret?: string;
}): string {
  return keptSecret(config.dataDir, SANDBOX_SECRET_FILE, config.socialSandboxSecret);
}

/** The social platforms' secrets: the real Douyin app's client_secret. */
export const SOCIAL_SECRETS: readonly SecretFieldSpec[] = [
  {
    name: 'douyin_client_secret',
    provider: 'douyin',
    env: 'DOUYIN_CLIENT_SECRET',
    fromEnv: (c) => c.douyin.clientSecret,
  },
];

export function createSocialPlatforms(
  config: Config,
  secrets: SecretLookup = environmentLookup(SOCIAL_SECRETS, config),
  now: Clock = Date.now,
): SocialPlatforms {
  const { clientKey, baseUrl } = config.douyin;
  const douyin = clientKey
    ? createDouyinPlatform({
        baseUrl,
        clientKey,
        clientSecret: () => secrets('douyin_client_secret'),
        sandbox: false,
        now,
      })
    : undefined;
  const sandbox =
    config.socialSandbox === false
      ? undefined
      : createDouyinPlatform({
          baseUrl: `${config.socialSandboxUrl ?? config.publicUrl}${SANDBOX_PLATFORM_PREFIX}`,
          clientKey: SANDBOX_CLIENT_KEY,
          clientSecret: async () => socialSandboxSecret(config),
          sandbox: true,
          now,
        });
  return { douyin, sandbox };
}
