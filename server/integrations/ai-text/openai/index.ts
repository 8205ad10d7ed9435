import { titleLength } from '../../../../src/api/contract/ai-text';
import { fillTemplate } from '../../../../src/api/contract/ai-tools';
import type { SocialPlatformId } from '../../../../src/api/contract/matrix';
import { IntegrationError, type IntegrationErrorKind } from '../../errors';
import type { AiTextProvider, ImitateTitlesInput } from '../types';

interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/**
 * An OpenAI-compatible chat-completions service (OpenAI itself, or any server speaking its API:
 * `POST {baseUrl}/chat/completions` with `Authorization: Bearer <key>`). The model is asked for a
 * JSON array of titles; its answer is read leniently (in ```json fences, as `{"titles": […]}`,
 * or one title a line), each title trimmed, and the duplicates, the over-long ones and the input
 * itself dropped. Failures (server/integrations/errors.ts): no key, 401 and 403 are `reauthorize`;
 * 408, 429, 5xx, network, timeout and a reply that is not a chat completion are `transient`;
 * another 4xx, and fewer usable titles than asked for, are `permanent`. An abort of the caller's
 * signal rejects with its reason, untouched.
 */
export interface OpenAiTextOptions {
  /** `AI_TEXT_BASE_URL`, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** `AI_TEXT_MODEL`. */
  model: string;
  /** The API key, read before each call (a key set in the settings takes effect at once). */
  apiKey: () => Promise<string | undefined>;
  /** Per call (default 30 s). */
  timeoutMs?: number;
  /**
   * Values stored by an admin (the init config's AI text group), read before each call: each one
   * given wins over the option above.
   */
  overrides?: () => Promise<Partial<Pick<OpenAiTextOptions, 'baseUrl' | 'model' | 'timeoutMs'>>>;
}

const UNAVAILABLE = 'aiText.reason.unavailable';
const REFUSED = 'aiText.reason.refused';
const KEY_REFUSED = 'aiText.reason.keyRefused';
const NOT_CONFIGURED = 'aiText.reason.notConfigured';
export const TOO_FEW = 'aiText.reason.tooFewTitles';

/** More than asked for: some may come back too long or the same. */
const EXTRA = 2;

const PLATFORM_NAMES: Record<SocialPlatformId, string> = {
  douyin: 'Douyin',
  kuaishou: 'Kuaishou',
  xiaohongshu: 'Xiaohongshu',
  channels: 'WeChat Channels',
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createOpenAiText(options: OpenAiTextOptions): AiTextProvider {
  async function complete(
    messages: ChatMessage[],
    model: string | undefined,
    signal?: AbortSignal,
  ): Promise<string> {
    const stored = (await options.overrides?.()) ?? {};
    const baseUrl = stored.baseUrl ?? options.baseUrl;
    const timeoutMs = stored.timeoutMs ?? options.timeoutMs ?? 30_000;
    const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const key = await options.apiKey();
    if (!key) {
      throw new IntegrationError(
        'no API key is set for the AI text service',
        'reauthorize',
        NOT_CONFIGURED,
      );
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({
          model: model || stored.model || options.model,
          messages,
          temperature: 0.9,
        }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new IntegrationError(
        `POST ${url}: ${timeout.aborted ? 'timed out' : messageOf(error)}`,
        'transient',
        UNAVAILABLE,
      );
    }
    if (!response.ok) throw refusal(response.status, text);
    const content = contentOf(text);
    if (content === null) {
      throw new IntegrationError(
        `POST ${url}: the reply is not a chat completion: ${text.slice(0, 200)}`,
        'transient',
        UNAVAILABLE,
      );
    }
    return content;
  }

  return {
    name: 'openai',
    demonstration: false,
    async imitateTitles(input, signal) {
      const content = await complete(prompt(input), input.model, signal);
      const titles = usableTitles(content, input);
      if (titles.length < input.count) {
        throw new IntegrationError(
          `the AI text service gave ${titles.length} usable titles of ${input.count}: ${content.slice(0, 300)}`,
          'permanent',
          TOO_FEW,
          { got: titles.length, count: input.count },
        );
      }
      return titles.slice(0, input.count);
    },
    async complete(input, signal) {
      return complete([{ role: 'user', content: input.prompt }], input.model, signal);
    },
  };
}

function prompt(input: ImitateTitlesInput): ChatMessage[] {
  const asked = input.count + EXTRA;
  const user = input.template
    ? fillTemplate(input.template, {
        title: JSON.stringify(input.title),
        count: String(asked),
        max_length: String(input.maxLength),
        platform: PLATFORM_NAMES[input.platform],
      })
    : null;
  return [
    {
      role: 'system',
      content:
        'You write titles for short videos. Answer with a JSON array of strings and nothing else.',
    },
    {
      role: 'user',
      content:
        user ??
        [
          `Write ${asked} new titles for a ${PLATFORM_NAMES[input.platform]} short video in the manner of the title below, in the same language.`,
          `Each title at most ${input.maxLength} characters, one line, no emoji, no hashtags; all different from each other and from the original.`,
          `Original title: ${JSON.stringify(input.title)}`,
        ].join('\n'),
    },
  ];
}

/** What a refused answer means: our key is refused, the request is, or the service is unwell. */
function refusal(status: number, text: string): IntegrationError {
  let message = text.slice(0, 300);
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message.slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  const kind: IntegrationErrorKind =
    status === 401 || status === 403
      ? 'reauthorize'
      : status === 408 || status === 429 || status >= 500
        ? 'transient'
        : 'permanent';
  const reasonId = { reauthorize: KEY_REFUSED, transient: UNAVAILABLE, permanent: REFUSED }[kind];
  return new IntegrationError(
    `POST /chat/completions: HTTP ${status} ${message}`.trim(),
    kind,
    reasonId,
    { status, message: message || String(status) },
  );
}

/** The first choice's message text, or null when the reply is not a chat completion. */
function contentOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : null;
  } catch {
    return null;
  }
}

/** Characters no title may hold (the contract's rule for a display name). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The titles of a model's answer that fit: trimmed, within the limit, distinct, not the input. */
function usableTitles(content: string, input: ImitateTitlesInput): string[] {
  const keyOf = (title: string) => title.toLowerCase().replace(/\s+/g, ' ');
  const seen = new Set([keyOf(input.title.trim())]);
  const titles: string[] = [];
  for (const raw of candidatesOf(content)) {
    const title = raw
      .trim()
      .replace(/^["'“”‘’「『]+|["'“”‘’」』]+$/gu, '')
      .trim();
    const key = keyOf(title);
    if (!title || HIDDEN.test(title) || titleLength(title) > input.maxLength || seen.has(key)) {
      continue;
    }
    seen.add(key);
    titles.push(title);
  }
  return titles;
}

/** The strings of the answer: its JSON array (maybe fenced, maybe in an object), else its lines. */
function candidatesOf(content: string): string[] {
  const unfenced = content.replace(/```[a-z]*\s*/gi, '').trim();
  const start = unfenced.indexOf('[');
  const end = unfenced.lastIndexOf(']');
  if (start !== -1 && end > start) {
    try {
      const parsed: unknown = JSON.parse(unfenced.slice(start, end + 1));
      if (Array.isArray(parsed)) return parsed.filter((item) => typeof item === 'string');
    } catch {
      // not JSON after all: read it line by line
    }
  }
  try {
    const parsed = JSON.parse(unfenced) as { titles?: unknown };
    if (Array.isArray(parsed.titles)) {
      return parsed.titles.filter((item): item is string => typeof item === 'string');
    }
  } catch {
    // lines
  }
  return unfenced
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)、])\s*/u, '').replace(/,$/, ''));
}
