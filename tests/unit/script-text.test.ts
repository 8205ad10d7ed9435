// @vitest-environment node
/**
 * How a picked script goes into a form's field (docs/domain.md §23 "Scripts in the forms"): a
 * text area gets it on its own line, a one-line field as one line, a title list line by line,
 * topics word by word without repeats.
 */
import { describe, expect, test } from 'vitest';
import {
  addTitleLines,
  addTopics,
  appendScript,
  oneLine,
  topicsOf,
} from '../../src/views/shared/script-text';

describe('a picked script in a field', () => {
  test('a text area: alone when empty, else on a new line after what is typed', () => {
    expect(appendScript('', ' 大家好 \n')).toBe('大家好');
    expect(appendScript('   \n', 'Hello')).toBe('Hello');
    expect(appendScript('First line\n\n', 'Second\nThird')).toBe('First line\nSecond\nThird');
  });

  test('a one-line field: the lines joined by a space', () => {
    expect(oneLine('  Summer sale \n\n  today only ')).toBe('Summer sale today only');
    expect(oneLine('一行')).toBe('一行');
  });

  test('a title list: each new line a title, none twice', () => {
    expect(addTitleLines(['A'], 'A\n B \n\nC\nB')).toEqual(['A', 'B', 'C']);
    expect(addTitleLines([], '  ')).toEqual([]);
  });

  test('topics: words without their #, the new ones after the typed ones', () => {
    expect(topicsOf('#food, travel，#旅行  ##x')).toEqual(['food', 'travel', '旅行', 'x']);
    expect(addTopics('food #travel', '#travel #探店\n#food 美食')).toBe('food travel 探店 美食');
    expect(addTopics('', '#a #b')).toBe('a b');
  });
});
