import type { AiTextProvider } from '../types';
import { demonstrationAnswer } from './complete';
import { imitateTitlesLocally } from './titles';

/**
 * The embedded AI-text provider (default): templates and synonyms, no network, deterministic; its
 * titles are demonstration output (the console labels them so).
 */
export function createEmbeddedAiText(): AiTextProvider {
  return {
    name: 'embedded',
    demonstration: true,
    async imitateTitles(input, signal) {
      signal?.throwIfAborted();
      return imitateTitlesLocally(input);
    },
    async complete(input, signal) {
      signal?.throwIfAborted();
      return demonstrationAnswer(input.prompt);
    },
  };
}
