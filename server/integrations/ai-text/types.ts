import type { SocialPlatformId } from '../../../src/api/contract/matrix';

/**
 * Short texts written for a person (today: titles in the manner of one it gives): one small
 * interface, two implementations chosen by config (`AI_TEXT_PROVIDER`, server/integrations/registry.ts):
 * - `embedded` (default; no network, deterministic): templates and synonym tables for Chinese and
 *   English titles, seeded by a hash of the input, so the same input gives the same titles. Its
 *   results are demonstration output, not an AI model's (`demonstration`).
 * - `openai`: any OpenAI-compatible chat-completions service at `AI_TEXT_BASE_URL` (model
 *   `AI_TEXT_MODEL`); its API key is read at the time of use from the sealed settings
 *   (`/integration/set_secret`, kind `ai-text`, field `api_key`), else from `AI_TEXT_API_KEY`.
 *
 * A call stores nothing and costs the caller nothing. It resolves with exactly `count` distinct
 * titles, none equal to the input, each at most `maxLength` characters (code points), or rejects
 * with an {@link IntegrationError} (server/integrations/errors.ts): `transient` (network, timeout,
 * 429, 5xx: try again later), `permanent` (the service answered, but not enough usable titles),
 * `reauthorize` (the service refuses our key, or none is set: an admin sets it). An abort of
 * `signal` rejects with the signal's reason.
 */
export interface AiTextProvider {
  readonly name: 'embedded' | 'openai';
  /** True when results are demonstration output (the embedded provider). */
  readonly demonstration: boolean;
  imitateTitles(input: ImitateTitlesInput, signal?: AbortSignal): Promise<string[]>;
  /**
   * The provider that serves a call now, when it depends on the settings (the app's provider
   * switches to the OpenAI-compatible service when an admin stores its address).
   */
  resolve?(): Promise<AiTextProvider>;
  /**
   * One generic completion (an AI tool's filled template, docs/domain.md §23): the OpenAI adapter
   * sends `prompt` as one chat completion (with `model`, else its configured one) and answers the
   * reply's text; the embedded provider answers a deterministic text derived from the prompt,
   * headed as demonstration output (it never pretends to be a model).
   */
  complete(input: CompleteInput, signal?: AbortSignal): Promise<string>;
}

export interface CompleteInput {
  /** The filled template (1–20 000 characters). */
  prompt: string;
  /** The model to ask; empty or absent: the configured one. */
  model?: string;
}

export interface ImitateTitlesInput {
  /** The title to imitate (trimmed, one line, 1–100 characters). */
  title: string;
  /** How many titles to write (1–10). */
  count: number;
  /** The longest title allowed, in code points (the platform's `TITLE_LIMITS`). */
  maxLength: number;
  /** Where they will be published (the tone of the platform). */
  platform: SocialPlatformId;
  /**
   * The enabled `imitate_title` tool's template (docs/domain.md §23): the OpenAI adapter fills its
   * `${title}`, `${count}` (how many it asks for), `${max_length}` and `${platform}` and sends it
   * instead of the built-in user message; the embedded provider ignores it (its titles engine
   * answers).
   */
  template?: string;
  /** The model for that prompt; empty or absent: the configured one. */
  model?: string;
}
