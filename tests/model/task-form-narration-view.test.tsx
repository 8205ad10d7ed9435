/**
 * The mixed-cut form's narration and subtitle fields (src/views/creation/task-form-narration.tsx),
 * driven as a merchant would: a script typed, a voice chosen (the embedded provider's voice is
 * labelled demonstration), an SRT file imported (its times kept) and one line edited, the
 * transition and watermark set; the estimate shows the narration's length and price; Create task
 * sends the body with all of it. The shots are put in the draft directly (picking is the mixed-cut
 * form's own test).
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { VideoTaskBody, VideoTaskEstimate } from '../../src/api/contract/video-tasks';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  videoTaskFormsArea,
  type VideoTaskFormsEndpoints,
} from '../../src/app/actors/video-task-forms';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import zhCN from '../../src/i18n/zh-CN';
import { MixedTaskFormDrawer, NewMixedTaskButton } from '../../src/views/creation/task-form';
import { parseSrt } from '../../src/views/shared/srt';
import { clipResource, READY_VOICE, shopAuth } from './video-task-fixtures';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const BEACH = clipResource(1, 'Beach', 3);
const PUBLIC_VOICE = {
  ...READY_VOICE,
  id: 7,
  owner_id: null,
  scope: 'public' as const,
  name: 'Lily',
};
const SRT = `1
00:00:00,400 --> 00:00:01,200
<i>First</i> line

2
00:00:01,800 --> 00:00:02,500
Second
line
`;

beforeEach(() => {
  localeStore.set('en-US');
});

describe('SRT import', () => {
  test('keeps the cues’ times and joins their lines, tags removed', () => {
    expect(parseSrt(SRT)).toEqual([
      { start: 0.4, end: 1.2, text: 'First line' },
      { start: 1.8, end: 2.5, text: 'Second line' },
    ]);
    expect(parseSrt('no cue here')).toEqual([]);
  });
});

describe('the mixed-cut form with a narration', () => {
  test(
    'sends the script, the voice, the imported lines (one edited), the fade and the watermark',
    { timeout: 60_000 },
    async () => {
      const adds: VideoTaskBody[] = [];
      const estimates: VideoTaskBody[] = [];
      const endpoints: VideoTaskFormsEndpoints = {
        estimateVideoTask: async (body): Promise<VideoTaskEstimate> => {
          estimates.push(body);
          return {
            combinations: 1,
            outputs: 1,
            unit_cost: '0.10',
            cost: '0.10',
            balance: '10.00',
            duration_min: 3,
            duration_max: 3,
            ...('narration' in body && body.narration
              ? { narration: { seconds: 4, cost: 4, balance: 7200 } }
              : {}),
          };
        },
        addVideoTask: async (body) => {
          adds.push(body);
          return { id: 41 };
        },
        getResources: async () => ({ list: [BEACH], total: 1 }),
        getGroups: async () => ({ list: [], ungrouped: 0 }),
        getReadyVoices: async (query) =>
          query.scope === 'public'
            ? { list: [PUBLIC_VOICE], total: 1 }
            : { list: [{ ...READY_VOICE, demonstration: false }], total: 1 },
        previewVideoTask: () => new Promise(() => {}),
        getVideoPreview: () => new Promise(() => {}),
      };
      const actors = appActors({ auth: shopAuth() });
      provideArea(actors, videoTaskFormsArea, endpoints);
      renderAt(
        actors,
        <>
          <NewMixedTaskButton />
          <MixedTaskFormDrawer />
        </>,
        '/creation/mixed-task',
      );
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: text('taskForm.new') }));
      const drawer = () => within(screen.getAllByRole('dialog').find(isOpen)!);
      const area = areasOf(actors).get(videoTaskFormsArea);
      const picked = {
        id: 1,
        name: 'Beach',
        type: 'video' as const,
        cover: null,
        url: '/files/beach.mp4',
        duration: 3,
      };
      act(() => {
        area.mixed.send({
          type: 'EDIT',
          patch: { groups: [{ key: 1, shots: [picked], duration: '' }], count: '1' },
        });
      });
      await user.type(drawer().getByRole('textbox', { name: /^Task name/ }), 'Narrated');
      await user.type(
        drawer().getByRole('textbox', { name: text('taskForm.narrationText') }),
        'Hello there. Good morning.',
      );
      const voice = drawer().getByRole('combobox', { name: text('taskForm.narrationVoice') });
      await vi.waitFor(() => expect(within(voice).getAllByRole('option')).toHaveLength(3));
      expect(drawer().queryByText(text('taskForm.demonstration'))).toBeNull();
      await user.selectOptions(voice, '7');
      // The embedded provider's voice speaks: labelled demonstration.
      expect(drawer().getByText(text('taskForm.demonstration'))).toBeTruthy();
      const file = new File([SRT], 'lines.srt', { type: 'text/plain' });
      await user.upload(drawer().getByLabelText(text('taskForm.importSrt')), file);
      const second = await vi.waitFor(() =>
        drawer().getByRole('textbox', { name: text('taskForm.lineText', { n: 2 }) }),
      );
      expect((second as HTMLInputElement).value).toBe('Second line');
      await user.clear(second);
      await user.type(second, 'Edited line');
      await user.selectOptions(
        drawer().getByRole('combobox', { name: text('taskForm.transition') }),
        'fade',
      );
      await user.type(drawer().getByRole('textbox', { name: text('taskForm.watermark') }), 'ACME');
      // The estimate shows the narration's length and its price in digital-human seconds.
      await vi.waitFor(() =>
        expect(drawer().getByText(text('taskForm.narrationSeconds'))).toBeTruthy(),
      );
      expect(drawer().getByText('4 s')).toBeTruthy();
      expect(estimates.at(-1)).toMatchObject({ narration: { voice_id: 7 } });
      await user.click(drawer().getByRole('button', { name: text('taskForm.submit') }));
      await vi.waitFor(() => expect(adds).toHaveLength(1));
      expect(adds[0]).toMatchObject({
        kind: 'mixed',
        name: 'Narrated',
        narration: { text: 'Hello there. Good morning.', voice_id: 7, speed: 1, volume: 1 },
        subtitles: {
          lines: [
            { start: 0.4, end: 1.2, text: 'First line' },
            { start: 1.8, end: 2.5, text: 'Edited line' },
          ],
          position: 'bottom',
        },
        transition: 'fade',
        watermark: { text: 'ACME', corner: 'bottom_right' },
      });
    },
  );

  test('has every new string in both catalogues', () => {
    const ids = Object.keys(enUS).filter((k) =>
      /^taskForm\.(narration|voices|noNarration|publicVoice|demonstration|subtitlePosition|subtitleOutline|importSrt|line|removeLine|addLine|transition|watermark|corner)/.test(
        k,
      ),
    );
    expect(ids.length).toBeGreaterThan(30);
    for (const id of ids) expect(zhCN[id as MessageId], id).toBeTruthy();
  });
});
