import {
  TITLE_LIMITS,
  type ImitateTitleParams,
  type ImitateTitleReply,
} from '../../../src/api/contract/ai-text';
import { IMITATE_TITLE_TOOL } from '../../../src/api/contract/ai-tools';
import type { AppContext } from '../../context';
import { currentAiText } from '../../integrations/ai-text';
import { IntegrationError } from '../../integrations/errors';
import { refuse } from '../../platform/http/errors';
import { isMessageId } from '../../platform/i18n';
import { enabledTool } from '../ai-tools';

/**
 * Titles in the manner of the caller's (`POST /matrix/ai_imitate_title`): the AI-text provider
 * writes `count` distinct ones within the platform's limit. Nothing is stored or charged. A
 * failure of the provider is a refusal in the caller's locale (HTTP 200, code 0): `transient`
 * asks to try again later, `reauthorize` says an admin must set the key, `permanent` says why.
 */
export async function imitateTitles(
  ctx: AppContext,
  params: ImitateTitleParams,
  signal?: AbortSignal,
): Promise<ImitateTitleReply> {
  // The provider in use now (an AI text address saved by an admin switches it at once).
  const provider = await currentAiText(ctx.integrations.aiText);
  const tool = await enabledTool(ctx.db, IMITATE_TITLE_TOOL);
  try {
    const titles = await provider.imitateTitles(
      {
        title: params.title,
        count: params.count,
        maxLength: TITLE_LIMITS[params.platform],
        platform: params.platform,
        ...(tool ? { template: tool.template, model: tool.model } : {}),
      },
      signal,
    );
    return { titles, demonstration: provider.demonstration };
  } catch (error) {
    if (!(error instanceof IntegrationError)) throw error;
    ctx.log.warn(
      { provider: provider.name, kind: error.kind, reason: error.reasonId, err: error.message },
      'AI titles failed',
    );
    const reasonId = isMessageId(error.reasonId) ? error.reasonId : 'aiText.reason.unavailable';
    throw refuse(reasonId, error.reasonParams);
  }
}
