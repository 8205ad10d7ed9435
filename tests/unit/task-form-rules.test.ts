// @vitest-environment node
/**
 * The create forms' drafts read by the contract's rules (src/app/actors/video-task-forms.ts,
 * src/machines/mixed-task-form.ts, clip-editor.ts, task-form.ts): what a person typed becomes the
 * body `add` takes, an empty or wrong field is refused with its own message (by field path), the
 * price is asked with a stand-in name, and the estimate's warnings.
 */
import { describe, expect, test } from 'vitest';
import { checkClipDraft, checkMixedDraft } from '../../src/app/actors/video-task-forms';
import { freshClipDraft } from '../../src/machines/clip-editor';
import { freshMixedDraft, type MixedDraft } from '../../src/machines/mixed-task-form';
import { estimateWarnings, newTitle, type Picked } from '../../src/machines/task-form';

const shot = (id: number): Picked => ({
  id,
  name: `clip ${id}`,
  type: 'video',
  cover: null,
  url: `/f/${id}`,
  duration: 3,
});

const ready = (over: Partial<MixedDraft> = {}): MixedDraft => ({
  ...freshMixedDraft(),
  name: ' Spring ',
  groups: [
    { key: 1, shots: [shot(1), shot(2)], duration: '' },
    { key: 2, shots: [shot(3)], duration: '1.5' },
  ],
  ...over,
});

describe('the mixed-cut draft', () => {
  test('a complete draft is the body add takes: optional parts only when given', () => {
    const { body, errors, estimate } = checkMixedDraft(ready());
    expect(errors).toEqual({});
    expect(body).toEqual({
      kind: 'mixed',
      name: ' Spring ',
      ratio: '9:16',
      resolution: '720p',
      fit: 'crop',
      fps: 30,
      bitrate: 1200,
      music_volume: 5,
      keep_original_sound: true,
      mode: 'random',
      count: 3,
      shot_groups: [{ resource_ids: [1, 2] }, { resource_ids: [3], duration: 1.5 }],
    });
    expect(estimate).toEqual({ ...body, name: 'estimate' });
  });

  test('music, intro, outro, titles, subtitles and the advanced length go in when given', () => {
    const { body } = checkMixedDraft(
      ready({
        music: [shot(8)],
        intro: shot(5),
        outro: shot(6),
        titles: [{ ...newTitle([]), text: 'Sale' }],
        subtitleText: 'Hello. World.',
        duration: '12',
      }),
    );
    expect(body).toMatchObject({
      music_ids: [8],
      intro_id: 5,
      outro_id: 6,
      titles: [{ text: 'Sale', size: 48, color: '#ffffff', position: 'top' }],
      subtitles: { text: 'Hello. World.', size: 36, color: '#ffffff' },
      duration: 12,
    });
  });

  test('each wrong field has its own message; an empty number is refused, never 0', () => {
    const { body, errors, estimate } = checkMixedDraft(
      ready({
        name: '   ',
        count: '',
        fps: '31',
        bitrate: '100',
        titles: [{ ...newTitle([]), text: '' }],
        groups: [
          { key: 1, shots: [], duration: '' },
          { key: 2, shots: [shot(3)], duration: '0.1' },
        ],
      }),
    );
    expect(body).toBeNull();
    expect(estimate).toBeNull();
    expect(errors).toEqual({
      name: 'validation.taskName',
      count: 'validation.outputCount',
      fps: 'validation.fps',
      bitrate: 'validation.bitrate',
      'titles.0.text': 'validation.titleText',
      'shot_groups.0.resource_ids': 'validation.shotGroup',
      'shot_groups.1.duration': 'validation.shotDuration',
    });
  });

  test('an empty name is refused for add but does not stop the price', () => {
    const { body, errors, estimate } = checkMixedDraft(ready({ name: '' }));
    expect(body).toBeNull();
    expect(errors).toEqual({ name: 'validation.taskName' });
    expect(estimate).toMatchObject({ name: 'estimate', count: 3 });
  });
});

describe('the clip draft', () => {
  test('no video: refused with the resource message; nothing to price', () => {
    const { errors, estimate } = checkClipDraft({ ...freshClipDraft(), name: 'Clip' });
    expect(Object.keys(errors)).toContain('resource_id');
    expect(estimate).toBeNull();
  });

  test('a kept part shorter than 0.5 s is refused', () => {
    const draft = { ...freshClipDraft(), name: 'Clip', video: shot(1), start: '1', end: '1.2' };
    expect(checkClipDraft(draft).errors).toEqual({ trim: 'validation.trim' });
  });

  test('a trimmed clip with a sticker is the body add takes', () => {
    const draft = {
      ...freshClipDraft(),
      name: 'Clip',
      video: shot(1),
      start: '0.5',
      end: '2',
      stickers: [
        {
          key: 1,
          resource: { ...shot(9), type: 'sticker' as const },
          x: '0.1',
          y: '0.2',
          width: '0.3',
        },
      ],
    };
    expect(checkClipDraft(draft).body).toMatchObject({
      kind: 'clip',
      resource_id: 1,
      trim: { start: 0.5, end: 2 },
      stickers: [{ resource_id: 9, x: 0.1, y: 0.2, width: 0.3 }],
    });
  });
});

test('the estimate warns of more outputs than combinations and of a short balance (in cents)', () => {
  const estimate = {
    combinations: 2,
    outputs: 2,
    unit_cost: '0.10',
    cost: '0.30',
    balance: '0.30',
    duration_min: 1,
    duration_max: 1,
  };
  expect(estimateWarnings(estimate)).toEqual({ tooMany: false, short: false });
  expect(estimateWarnings({ ...estimate, outputs: 3 })).toEqual({ tooMany: true, short: false });
  expect(estimateWarnings({ ...estimate, balance: '0.29' })).toEqual({
    tooMany: false,
    short: true,
  });
});
