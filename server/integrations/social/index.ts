import type { Config } from '../../platform/config';
import type { Clock } from '../../platform/lib/clock';
import { keptSecret } from '../../platform/lib/secrets';
import { environmentLookup, type SecretFieldSpec, type SecretLookup } from '../secret-fields';
import type { SettingLookup } from '../settings';
import { createDouyinPlatform } from './douyin';
import type { SocialPlatform } from './types';

export type * from './types';
export { SocialPlatformError } from './types';
export { createDouyinPlatform, douyinClientToken } from './douyin';

/** The social platforms in use (`ctx.integrations.social`). */
export interface SocialPlatforms {
  /**
   * The real Douyin Open Platform while a client_key is in use — stored by an admin (init config,
   * group `douyin`), else `DOUYIN_CLIENT_KEY` — read at each call, so a key saved takes effect at
   * the next authorisation, refresh or publish, in every process.
   */
  douyin(): Promise<SocialPlatform | undefined>;
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

/**
 * The social platforms. `settings` (the app): the Douyin client_key is read at each call; without
 * them (scripts, tests of the adapter) `DOUYIN_CLIENT_KEY` alone.
 */
export function createSocialPlatforms(
  config: Config,
  secrets: SecretLookup = environmentLookup(SOCIAL_SECRETS, config),
  now: Clock = Date.now,
  settings?: SettingLookup,
): SocialPlatforms {
  const { baseUrl } = config.douyin;
  // One adapter per client_key in use (a key changes seldom; the adapter holds no state of its own).
  let made: { clientKey: string; platform: SocialPlatform } | undefined;
  const douyin = async () => {
    const clientKey = settings
      ? await settings('social', 'douyin_client_key')
      : config.douyin.clientKey;
    if (!clientKey) return undefined;
    if (made?.clientKey !== clientKey) {
      made = {
        clientKey,
        platform: createDouyinPlatform({
          baseUrl,
          clientKey,
          clientSecret: () => secrets('douyin_client_secret'),
          sandbox: false,
          now,
        }),
      };
    }
    return made.platform;
  };
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
