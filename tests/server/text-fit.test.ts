import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cjkFont, libassEmPerSize } from '../../server/platform/render/fonts';
import { buildRenderArgs, fitTitles } from '../../server/platform/render/graph';
import { buildAss } from '../../server/platform/render/subtitles';
import { subtitlePages, textEm, wrapText } from '../../server/platform/render/text-fit';

/**
 * Lines broken before ffmpeg draws them (server/platform/render/text-fit.ts): the pure rules. The frames
 * themselves are checked in render-text-margins.test.ts.
 */

const LONG = '今天我们来聊一聊如何在短视频平台上快速吸引观众的注意力并且提高视频的完播率和互动率';

describe('wrapText', () => {
  it('breaks Chinese anywhere, but never puts closing punctuation first on a line', () => {
    expect(wrapText('一二三四五，六七八九十。', 6)).toEqual(['一二三四五，', '六七八九十。']);
    // "五，" is one piece: it moves to the next line whole.
    expect(wrapText('一二三四五，六七八九十。', 5)).toEqual(['一二三四', '五，六七', '八九十。']);
    for (const line of wrapText('我们去公园吧，好吗？今天天气很好。', 4)) {
      expect(line).not.toMatch(/^[，。？]/);
    }
  });

  it('keeps Latin words whole and breaks at spaces', () => {
    const lines = wrapText('Summer sale starts today with new arrivals', 12);
    expect(lines.join(' ')).toBe('Summer sale starts today with new arrivals');
    for (const line of lines) expect(textEm(line)).toBeLessThanOrEqual(12);
    expect(lines.every((l) => !l.startsWith(' ') && !l.endsWith(' '))).toBe(true);
  });

  it('balances the lines (no lone character left over) and keeps given line breaks', () => {
    expect(wrapText('一二三四五六七八九十十一', 10)).toEqual(['一二三四五六', '七八九十十一']);
    expect(wrapText('第一行\n第二行', 20)).toEqual(['第一行', '第二行']);
  });

  it('cuts a word longer than a line into pieces that fit', () => {
    const lines = wrapText('https://example.com/a-very-long-address-without-spaces', 8);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(textEm(line)).toBeLessThanOrEqual(8);
  });
});

describe('subtitles', () => {
  it('shows a long sentence two lines at a time, one page after another', () => {
    const pages = subtitlePages(LONG, 12);
    expect(pages.length).toBe(2);
    expect(pages.every((p) => p.length <= 2)).toBe(true);
    expect(pages.flat().join('')).toBe(LONG);
    const ass = buildAss({
      width: 720,
      height: 1280,
      fontName: 'Noto Sans CJK SC',
      size: 60,
      color: '#FFFFFF',
      emPerSize: 0.69,
      lines: [{ start: 0, end: 4, text: LONG }],
    });
    const dialogues = ass.split('\n').filter((l) => l.startsWith('Dialogue:'));
    expect(dialogues).toHaveLength(2);
    // The pages share the sentence's time, back to back; each has its lines.
    expect(dialogues[0]).toMatch(
      /^Dialogue: 0,0:00:00\.00,0:00:0(\d\.\d\d),Default,,0,0,0,,.+\\N.+$/,
    );
    const split = /0:00:00\.00,(0:00:0\d\.\d\d)/.exec(dialogues[0]!)![1];
    expect(dialogues[1]).toContain(`Dialogue: 0,${split},0:00:04.00,`);
  });

  it('wraps narrower for a font that libass draws larger', () => {
    const options = { width: 720, height: 1280, fontName: 'F', size: 40, color: '#FFFFFF' };
    const lines = [{ start: 0, end: 4, text: LONG }];
    const lineCount = (ass: string) =>
      (ass.match(/\\N/g) ?? []).length + (ass.match(/^Dialogue:/gm) ?? []).length;
    const small = buildAss({ ...options, lines, emPerSize: 0.69 });
    const large = buildAss({ ...options, lines, emPerSize: 1 });
    expect(lineCount(large)).toBeGreaterThan(lineCount(small));
  });

  it('reads how large libass draws a font from its OS/2 metrics', async () => {
    const { file } = await cjkFont();
    expect(await libassEmPerSize(file)).toBeCloseTo(1000 / 1448, 3); // Noto Sans CJK (.ttc)
    expect(
      await libassEmPerSize('/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'),
    ).toBeCloseTo(2048 / (1901 + 483), 3);
    const junk = path.join(os.tmpdir(), `not-a-font-${process.pid}.ttf`);
    await fs.writeFile(junk, 'not a font');
    expect(await libassEmPerSize(junk)).toBe(1);
    await fs.rm(junk);
  });
});

describe('titles', () => {
  const spec = (text: string, size = 64) => ({
    width: 720,
    height: 1280,
    titles: [{ text, size, color: '#FFFFFF', position: 'center' as const }],
  });

  it('wraps a long title into centred lines, one drawtext each', () => {
    const [fitted] = fitTitles(spec('夏季新品限时特惠活动火热进行中全场商品低至五折起'));
    expect(fitted!.size).toBe(64);
    expect(fitted!.lines.length).toBe(3);
    for (const line of fitted!.lines) expect(textEm(line) * 64).toBeLessThanOrEqual(648);
    const args = buildRenderArgs(
      {
        ...spec('夏季新品限时特惠活动火热进行中全场商品低至五折起'),
        fps: 25,
        bitrateKbps: 900,
        segments: [
          { input: { source: '/a.mp4', duration: 2, hasAudio: false }, start: 0, length: 2 },
        ],
        keepOriginalSound: false,
        music: null,
        musicVolume: 5,
        subtitles: null,
        stickers: [],
        preset: 'ultrafast',
      },
      '/o.mp4',
      {
        titleFiles: [['/t/0', '/t/1', '/t/2']],
        titleFont: { family: 'Noto Sans CJK SC', file: '/f.ttc' },
        assFile: null,
        fontsDir: null,
      },
    );
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    const ys = [...graph.matchAll(/textfile=\/t\/\d[^,]*x=\(w-text_w\)\/2:y=(\d+)-ascent/g)].map(
      (m) => Number(m[1]),
    );
    expect(ys).toHaveLength(3);
    expect(ys[1]! - ys[0]!).toBe(80); // 1.25 × 64
    // Centred as a block around the middle of the frame.
    expect(Math.abs((ys[0]! + ys[2]!) / 2 - 640 - 64 * 0.38)).toBeLessThan(2);
  });

  it('shrinks a title that would take more than three lines', () => {
    // 28 characters: five lines at 96 px, three at a smaller size.
    const [fitted] = fitTitles(spec('夏季新品限时特惠活动火热进行中全场商品低至五折起欢迎', 96));
    expect(fitted!.lines).toHaveLength(3);
    expect(fitted!.size).toBeLessThan(96);
    expect(fitted!.size).toBeGreaterThanOrEqual(58);
    // Never below 60 %: a longer one takes more lines instead.
    const [longer] = fitTitles(
      spec('夏季新品限时特惠活动火热进行中全场商品低至五折起'.repeat(2), 96),
    );
    expect(longer!.size).toBe(58);
    expect(longer!.lines.length).toBeGreaterThan(3);
  });
});
