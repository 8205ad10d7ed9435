import { createHash } from 'node:crypto';
import { titleLength } from '../../../../src/api/contract/ai-text';
import { IntegrationError } from '../../errors';
import type { ImitateTitlesInput } from '../types';
import {
  EN_FALLBACK_TOPIC,
  EN_HOOKS,
  EN_PLATFORM_TEMPLATES,
  EN_SYNONYMS,
  EN_TEMPLATES,
  NUMBERS,
  ZH_FALLBACK_TOPIC,
  ZH_HOOKS,
  ZH_PLATFORM_TEMPLATES,
  ZH_SYNONYMS,
  ZH_TEMPLATES,
} from './tables';

/**
 * The embedded title generator: the topic of the person's title (its longest part once the hooks
 * such as "3个技巧" or "，太绝了" are gone), put into short-video title patterns, with words
 * swapped for synonyms. Deterministic: a hash of the title, the platform and the limit seeds the
 * order of the patterns, so the same input gives the same titles (and asking for more gives the
 * same first ones). Always exactly `count` distinct titles, none equal to the input (compared
 * case-insensitively, spaces folded), each within `maxLength` code points, without emoji; when
 * the patterns run out, numbered parts ("…第2期", "…, part 2") fill the rest.
 */
export function imitateTitlesLocally(input: ImitateTitlesInput): string[] {
  const { title, count, maxLength, platform } = input;
  const random = seededRandom(`${platform}\n${maxLength}\n${title}`);
  const zh = HAN.test(title);
  const topic = topicOf(title, zh);
  const variants = [topic, ...shuffle(synonymVariants(topic, zh), random).slice(0, 5)];
  const templates = shuffle(
    [
      ...(zh ? ZH_TEMPLATES : EN_TEMPLATES),
      ...(zh ? ZH_PLATFORM_TEMPLATES : EN_PLATFORM_TEMPLATES)[platform],
    ],
    random,
  );
  const firstNumber = Math.floor(random() * NUMBERS.length);

  const titles: string[] = [];
  const seen = new Set([keyOf(title)]);
  const add = (candidate: string | null) => {
    if (candidate === null || titles.length >= count) return;
    const key = keyOf(candidate);
    if (key === '' || titleLength(candidate) > maxLength || seen.has(key)) return;
    seen.add(key);
    titles.push(candidate);
  };

  // Each pattern with another wording of the topic (and another number) in each round: first
  // the patterns with room for the whole topic, then those with room for at least half of it.
  for (const whole of [true, false]) {
    for (let round = 0; round < variants.length + 2 && titles.length < count; round++) {
      templates.forEach((template, i) => {
        const wording = variants[(round + i) % variants.length];
        const n = NUMBERS[(firstNumber + round + i) % NUMBERS.length];
        const least = whole ? titleLength(wording) : halfOf(wording, zh);
        add(fill(template, wording, n, maxLength, zh, least));
      });
    }
  }
  // Numbered parts of a series, when the limit left too few patterns room for the topic.
  for (let part = 1; part <= count + 50 && titles.length < count; part++) {
    const suffix = zh ? ` 第${part}期` : `, part ${part}`;
    const short = shorten(topic, maxLength - titleLength(suffix), zh, 1, true);
    add(short ? `${short}${suffix}` : zh ? `第${part}期` : `Part ${part}`);
  }
  if (titles.length < count) {
    throw new IntegrationError(
      `only ${titles.length} of ${count} titles fit in ${maxLength} characters`,
      'permanent',
      'aiText.reason.tooFewTitles',
      { got: titles.length, count },
    );
  }
  return titles;
}

const HAN = /\p{Script=Han}/u;
/** Emoji and their modifiers, flags and keycaps: dropped from the topic. */
const EMOJI =
  /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u{fe0e}\u{fe0f}\u{20e3}]/gu;
const ZH_PARTS = /[，,。！!？?；;｜|：:、…~～]+/u;
const EN_PARTS = /\s*[!?;|:…]+\s*|\s+[-–—]+\s+|,\s+/u;
const EDGES = /^[\s,.!?;:，。！？；：、…~～·|｜\-–—]+|[\s,.!?;:，。！？；：、…~～·|｜\-–—]+$/gu;
/** What a shortened Chinese topic must not end with. */
const ZH_DANGLING = /[的了和与及或在把被让给对从向，、\s]+$/u;
/** What a shortened English topic must not end with. */
const EN_DANGLING = /\s+(and|or|the|a|an|to|for|of|with|in|on|at|by|your|my|is|are)$/iu;

/** Compared case-insensitively with spaces folded: titles differing only so are the same. */
const keyOf = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** The title without emoji and hooks; its longest part. */
function topicOf(title: string, zh: boolean): string {
  let text = title.replace(EMOJI, '').replace(/\s+/g, ' ').trim();
  for (let pass = 0; pass < 2; pass++) {
    for (const hook of zh ? ZH_HOOKS : EN_HOOKS) text = text.replace(hook, '').trim();
  }
  const parts = text
    .split(zh ? ZH_PARTS : EN_PARTS)
    .map((part) => part.replace(EDGES, ''))
    .filter((part) => part !== '');
  const longest = parts.reduce(
    (best, part) => (titleLength(part) > titleLength(best) ? part : best),
    '',
  );
  return longest || (zh ? ZH_FALLBACK_TOPIC : EN_FALLBACK_TOPIC);
}

/** The topic with one word swapped for each of its synonyms. */
function synonymVariants(topic: string, zh: boolean): string[] {
  const variants: string[] = [];
  for (const group of zh ? ZH_SYNONYMS : EN_SYNONYMS) {
    for (const word of group) {
      const pattern = zh ? new RegExp(word, 'u') : new RegExp(`\\b${word}\\b`, 'iu');
      const match = pattern.exec(topic);
      if (!match) continue;
      for (const other of group) {
        if (other === word) continue;
        const replacement = /^\p{Lu}/u.test(match[0]) ? capitalize(other) : other;
        variants.push(topic.replace(pattern, replacement));
      }
      break;
    }
  }
  return [...new Set(variants)].filter((v) => v !== topic);
}

/** Half the topic, but at least a few characters (a shortened topic keeps that much). */
const halfOf = (topic: string, zh: boolean) =>
  Math.min(titleLength(topic), Math.max(zh ? 4 : 8, Math.ceil(titleLength(topic) / 2)));

/** A pattern filled in, the topic shortened to its room; null when less than `least` fits. */
function fill(
  template: string,
  topic: string,
  n: number,
  maxLength: number,
  zh: boolean,
  least: number,
): string | null {
  const [before, after] = template.replace('{n}', String(n)).split('{t}') as [string, string];
  const room = maxLength - titleLength(before) - titleLength(after);
  const short = shorten(topic, room, zh, least);
  if (!short) return null;
  return `${before}${zh ? short : caseFor(short, before)}${after}`;
}

/**
 * The topic within `room` code points (whole words in English; a word cut only when `cutWords`
 * and none fits), or null when less than `least` is left.
 */
function shorten(
  topic: string,
  room: number,
  zh: boolean,
  least: number,
  cutWords = false,
): string | null {
  if (room < least || room <= 0) return null;
  let short = topic;
  if (titleLength(topic) > room) {
    if (zh) {
      short = cut(topic, room).replace(ZH_DANGLING, '');
    } else {
      const words: string[] = [];
      for (const word of topic.split(' ')) {
        if (titleLength([...words, word].join(' ')) > room) break;
        words.push(word);
      }
      short = words.length === 0 && cutWords ? cut(topic, room) : words.join(' ');
      while (EN_DANGLING.test(short)) short = short.replace(EN_DANGLING, '');
    }
    short = short.replace(EDGES, '');
  }
  return short !== '' && titleLength(short) >= least ? short : null;
}

const cut = (text: string, room: number) => [...text].slice(0, room).join('');

/**
 * An English topic as it reads after `before`: capitalised at the start of the title or a
 * sentence, else its first word in lower case when it is an ordinary capitalised word ("How").
 */
function caseFor(topic: string, before: string): string {
  if (before === '' || /[:!?]\s*$/.test(before)) return capitalize(topic);
  return topic.replace(
    /^(\p{Lu})(\p{Ll}+)\b/u,
    (_, first: string, rest: string) => first.toLowerCase() + rest,
  );
}

/** Upper-cases the first letter, but leaves words such as "iPhone" as they are. */
const capitalize = (text: string) =>
  /^\p{Ll}\p{Lu}/u.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1);

/** A small PRNG (mulberry32) seeded by a hash of the input. */
function seededRandom(seedText: string): () => number {
  let state = createHash('sha256').update(seedText).digest().readUInt32BE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy in a seeded order (Fisher–Yates). */
function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
