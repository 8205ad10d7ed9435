import { describe, expect, it } from 'vitest';
import {
  buildRenderArgs,
  filterValue,
  musicGain,
  type RenderPaths,
} from '../../server/platform/render/graph';
import type { RenderSpec } from '../../server/platform/render/spec';
import {
  assColour,
  assText,
  assTime,
  buildAss,
  splitSentences,
  timeLines,
} from '../../server/platform/render/subtitles';

/** The renderer's pure parts: the ffmpeg command and the subtitle script. */

const video = (source: string, duration: number, hasAudio = true) => ({
  source,
  duration,
  hasAudio,
});

const baseSpec = (over: Partial<RenderSpec> = {}): RenderSpec => ({
  width: 720,
  height: 1280,
  fps: 25,
  bitrateKbps: 900,
  segments: [
    { input: video('/in/a.mp4', 3), start: 0.5, length: 1.5 },
    { input: video('https://s3.example/b.mp4?X-Amz-Signature=x', 2, false), start: 0, length: 2.5 },
  ],
  keepOriginalSound: true,
  music: null,
  musicVolume: 5,
  titles: [],
  subtitles: null,
  stickers: [],
  preset: 'ultrafast',
  ...over,
});

const paths: RenderPaths = {
  titleFiles: [],
  titleFont: { family: 'Noto Sans CJK SC', file: '/fonts/cjk.ttc' },
  assFile: null,
  fontsDir: null,
};

const graphOf = (args: string[]) => args[args.indexOf('-filter_complex') + 1]!;
const valueAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('buildRenderArgs', () => {
  it('encodes H.264 yuv420p at the spec size, fps and bitrate, cut to the planned length', () => {
    const args = buildRenderArgs(baseSpec(), '/out/x.mp4', paths);
    expect(valueAfter(args, '-c:v')).toBe('libx264');
    expect(valueAfter(args, '-pix_fmt')).toBe('yuv420p');
    expect(valueAfter(args, '-preset')).toBe('ultrafast');
    expect(valueAfter(args, '-r')).toBe('25');
    expect(valueAfter(args, '-b:v')).toBe('900k');
    expect(valueAfter(args, '-maxrate')).toBe('900k');
    expect(valueAfter(args, '-bufsize')).toBe('1800k');
    expect(valueAfter(args, '-movflags')).toBe('+faststart');
    expect(valueAfter(args, '-c:a')).toBe('aac');
    expect(valueAfter(args, '-t')).toBe('1.5'); // the first input's -t: its segment length
    expect(args.slice(-4)).toEqual(['-progress', 'pipe:1', '-nostats', '/out/x.mp4']);
    expect(args[args.lastIndexOf('-t') + 1]).toBe('4');
    // Inputs are seeked and cut; URLs are passed as they are.
    expect(args.slice(5, 11)).toEqual(['-ss', '0.5', '-t', '1.5', '-i', '/in/a.mp4']);
    expect(args).toContain('https://s3.example/b.mp4?X-Amz-Signature=x');
  });

  it('crops to the target ratio before scaling, holds the last frame, and concatenates', () => {
    const graph = graphOf(buildRenderArgs(baseSpec(), '/o.mp4', paths));
    const first = graph.split(';')[0]!;
    expect(first).toMatch(/^\[0:v\]fps=25,crop=w='min\(iw,ih\*720\/1280\)'/);
    expect(first.indexOf('crop=')).toBeLessThan(first.indexOf('scale=720:1280'));
    expect(first).toContain('tpad=stop_mode=clone:stop_duration=1.5,trim=duration=1.5');
    expect(graph).toContain('tpad=stop_mode=clone:stop_duration=2.5,trim=duration=2.5');
    expect(graph).toContain('[v0][a0][v1][a1]concat=n=2:v=1:a=1[vcat][acat]');
    expect(graph).toContain('fade=t=in:st=0:d=0.3,fade=t=out:st=3.7:d=0.3[vout]');
  });

  it('with fit blur, shows each segment whole over a blurred copy filling the frame', () => {
    const graph = graphOf(buildRenderArgs(baseSpec({ fit: 'blur' }), '/o.mp4', paths));
    expect(graph).not.toContain('crop=w=');
    expect(graph).toContain('[0:v]fps=25,setsar=1,split=2[fitbg0][fitfg0]');
    expect(graph).toContain(
      '[fitbg0]scale=90:160:force_original_aspect_ratio=increase,crop=90:160,boxblur=',
    );
    expect(graph).toContain('scale=720:1280:force_original_aspect_ratio=decrease');
    expect(graph).toContain('[fitbgs0][fitfgs0]overlay=x=(W-w)/2:y=(H-h)/2[fit0]');
    expect(graph).toMatch(
      /\[fit1\]setsar=1,format=yuv420p,tpad=[^;]*trim=duration=2\.5[^;]*\[v1\]/,
    );
    // The default, and `crop`, crop as before.
    const crop = graphOf(buildRenderArgs(baseSpec({ fit: 'crop' }), '/o.mp4', paths));
    expect(crop).toBe(graphOf(buildRenderArgs(baseSpec(), '/o.mp4', paths)));
    expect(crop).not.toContain('boxblur');
  });

  it('keeps a segment’s sound only when asked and present; silence otherwise', () => {
    const kept = graphOf(buildRenderArgs(baseSpec(), '/o.mp4', paths));
    expect(kept).toContain('[0:a]aresample=44100');
    expect(kept).not.toContain('[1:a]'); // the second has no audio stream
    expect(kept).toMatch(/anullsrc=[^;]*atrim=duration=2\.5[^;]*\[a1\]/);
    const off = graphOf(buildRenderArgs(baseSpec({ keepOriginalSound: false }), '/o.mp4', paths));
    expect(off).not.toMatch(/\[\d+:a\]/);
  });

  it('mixes looped music at volume ÷ 5, and leaves it out at 0', () => {
    const music = video('/in/m.mp3', 1.5);
    const args = buildRenderArgs(baseSpec({ music, musicVolume: 10 }), '/o.mp4', paths);
    expect(args.join(' ')).toContain('-stream_loop -1 -i /in/m.mp3');
    expect(graphOf(args)).toContain('atrim=duration=4,asetpts=PTS-STARTPTS,volume=2[music]');
    expect(graphOf(args)).toContain('amix=inputs=2:duration=first');
    const none = buildRenderArgs(baseSpec({ music, musicVolume: 0 }), '/o.mp4', paths);
    expect(none).not.toContain('/in/m.mp3');
    expect([0, 2.5, 5, 10].map(musicGain)).toEqual([0, 0.5, 1, 2]);
  });

  it('draws titles from text files with the CJK font and no expansion, scaled at 1080p', () => {
    const titles = [
      { text: 'a:b\'c"\\%{pts}', size: 40, color: '#FF0000', position: 'top' as const },
      { text: '中文', size: 40, color: '#00ff00', position: 'bottom' as const },
    ];
    const spec = baseSpec({ titles, width: 1080, height: 1920 });
    const withFiles = { ...paths, titleFiles: [['/tmp/r/t0.txt'], ['/tmp/r/t1.txt']] };
    const graph = graphOf(buildRenderArgs(spec, '/o.mp4', withFiles));
    expect(graph).toContain(
      'drawtext=font=Noto Sans CJK SC:textfile=/tmp/r/t0.txt:expansion=none:fontsize=60:fontcolor=0xFF0000',
    );
    // Top: the line's box from 8 % of the height; bottom: its box ends at 80 %.
    expect(graph).toContain(`y=${Math.round(1920 * 0.08 + 7.5 + 60 * 0.88)}-ascent`);
    expect(graph).toContain(`y=${Math.round(1920 * 0.8 - 75 + 7.5 + 60 * 0.88)}-ascent`);
    expect(graph).not.toContain('%{pts}');
    const byFile = graphOf(
      buildRenderArgs(spec, '/o.mp4', {
        ...withFiles,
        titleFont: { family: null, file: '/f.ttc' },
      }),
    );
    expect(byFile).toContain('drawtext=fontfile=/f.ttc:textfile=');
  });

  it('places stickers by fractions of the frame and burns subtitles with libass', () => {
    const sticker = { input: { source: '/s.png', duration: null, hasAudio: false } };
    const spec = baseSpec({
      stickers: [{ ...sticker, x: 0.5, y: 0.25, width: 0.2 }],
      subtitles: { text: '一。二。', fontFile: null, size: 30, color: '#ffffff' },
    });
    const args = buildRenderArgs(spec, '/o.mp4', { ...paths, assFile: '/tmp/r/s.ass' });
    const graph = graphOf(args);
    expect(graph).toContain('[2:v]format=rgba,scale=144:-1[st0]');
    expect(graph).toContain('[vcat][st0]overlay=x=360:y=320:eof_action=repeat[vst0]');
    expect(graph).toContain('[vst0]subtitles=filename=/tmp/r/s.ass,fade=t=in');
  });

  it('writes the poster from the same run when asked: one frame at 0.5 s, ≤ 360 px wide', () => {
    const args = buildRenderArgs(baseSpec(), '/o.mp4', { ...paths, poster: '/o.jpg' });
    const graph = graphOf(args);
    expect(graph).toContain(',split=2[vout][vposter0]');
    expect(graph).toContain(
      "[vposter0]trim=start=0.5,setpts=PTS-STARTPTS,scale='min(360,iw)':-2[vposter]",
    );
    // A second output after the video: the poster's one frame.
    expect(args.slice(args.indexOf('/o.mp4'))).toEqual([
      ...['/o.mp4', '-map', '[vposter]', '-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '4'],
      ...['-f', 'mjpeg', '/o.jpg'],
    ]);
    const short = baseSpec({ segments: [{ input: video('/a.mp4', 3), start: 0, length: 0.6 }] });
    expect(graphOf(buildRenderArgs(short, '/o.mp4', { ...paths, poster: '/o.jpg' }))).toContain(
      '[vposter0]trim=start=0.3,',
    );
  });

  it('loops an image segment for its length', () => {
    const still = { source: '/p.png', duration: null, hasAudio: false };
    const args = buildRenderArgs(
      baseSpec({ segments: [{ input: still, start: 0, length: 2 }] }),
      '/o.mp4',
      paths,
    );
    expect(args.slice(5, 13)).toEqual([
      '-loop',
      '1',
      '-framerate',
      '25',
      '-t',
      '2',
      '-i',
      '/p.png',
    ]);
  });
});

describe('filterValue', () => {
  it('escapes a path for the option and graph levels', () => {
    expect(filterValue('/tmp/a b/c.txt')).toBe('/tmp/a b/c.txt');
    expect(filterValue("/t/it's:[1],x;y\\z")).toBe("/t/it\\\\\\'s\\\\:\\[1\\]\\,x\\;y\\\\\\\\z");
  });
});

describe('subtitles', () => {
  it('splits the copy at sentence ends and line breaks, keeping the marks', () => {
    expect(
      splitSentences(
        '今天天气很好。我们去公园吧！好吗？\n第二行没有句号\nPrice is 3.5 yuan. Buy now! OK?',
      ),
    ).toEqual([
      '今天天气很好。',
      '我们去公园吧！',
      '好吗？',
      '第二行没有句号',
      'Price is 3.5 yuan.',
      'Buy now!',
      'OK?',
    ]);
    expect(splitSentences('他说：“好。”然后走了……真的？！  \n\n  ')).toEqual([
      '他说：“好。”',
      '然后走了……真的？！',
    ]);
    expect(splitSentences('  ')).toEqual([]);
  });

  it('times each sentence in proportion to its length over the whole video', () => {
    const lines = timeLines(['一二三四。', '五六七八九十十一十二。', 'ab'], 9);
    // 5 + 11 + 2 = 18 characters over 9 s: 2 characters a second.
    expect(lines).toEqual([
      { start: 0, end: 2.5, text: '一二三四。' },
      { start: 2.5, end: 8, text: '五六七八九十十一十二。' },
      { start: 8, end: 9, text: 'ab' },
    ]);
    expect(timeLines([], 5)).toEqual([]);
  });

  it('writes an ASS script at the frame size with the font, size, colour and timed lines', () => {
    const ass = buildAss({
      width: 720,
      height: 1280,
      fontName: 'Noto Sans CJK SC',
      size: 40,
      color: '#FFCC00',
      lines: [
        { start: 0, end: 1.234, text: '第一句{\\b1}。' },
        { start: 1.234, end: 61.5, text: 'C:\\New' },
      ],
    });
    expect(ass).toContain('PlayResX: 720\nPlayResY: 1280');
    expect(ass).toContain('Style: Default,Noto Sans CJK SC,40,&H0000CCFF,');
    expect(ass).toContain('Dialogue: 0,0:00:00.00,0:00:01.23,Default,,0,0,0,,第一句\\{\\b1\\}。');
    expect(ass).toContain('Dialogue: 0,0:00:01.23,0:01:01.50,Default,,0,0,0,,C:\\\u200bNew');
    expect(assTime(3725.456)).toBe('1:02:05.46');
    expect(assColour('#102030')).toBe('&H00302010');
    expect(assText('a\n b')).toBe('a b');
  });
});
