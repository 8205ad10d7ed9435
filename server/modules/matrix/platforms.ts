import type { SocialPlatformId } from '../../../src/api/contract/matrix';
import type { AppContext } from '../../context';
import { refuse } from '../../platform/http/errors';
import type { SocialPlatform } from '../../integrations/social/types';
import { holdsDemoData } from '../system';

/**
 * Which platform adapter an account uses (docs/domain.md §19): Douyin's own while a client_key is
 * in use (init config, else `DOUYIN_CLIENT_KEY`; read at each call), else the embedded sandbox platform when it is on (`SOCIAL_SANDBOX=1`, or unset and
 * the database holds the demo data). Kuaishou, Xiaohongshu and WeChat Channels have no publishing
 * authorisation here: their posts are assisted (published by hand).
 */
export async function socialSandboxOn(ctx: AppContext): Promise<boolean> {
  return ctx.config.socialSandbox ?? (await holdsDemoData(ctx.db));
}

/** The adapter a new authorisation on `platform` goes through, and whether it is the sandbox. */
export async function adapterToBind(
  ctx: AppContext,
  platform: SocialPlatformId,
): Promise<{ adapter: SocialPlatform; sandbox: boolean }> {
  if (platform !== 'douyin') throw refuse('matrix.platformAssisted');
  const { sandbox } = ctx.integrations.social;
  const douyin = await ctx.integrations.social.douyin();
  if (douyin) return { adapter: douyin, sandbox: false };
  if (sandbox && (await socialSandboxOn(ctx))) return { adapter: sandbox, sandbox: true };
  throw refuse('matrix.platformNotConfigured');
}

/** The adapter of a bound account (the one it was bound through), or undefined when gone. */
export async function adapterOf(
  ctx: AppContext,
  account: { sandbox: number; assisted?: number },
): Promise<SocialPlatform | undefined> {
  // An assisted account has no API: its posts are published by hand.
  if (account.assisted) return undefined;
  const { social } = ctx.integrations;
  return account.sandbox ? social.sandbox : social.douyin();
}
