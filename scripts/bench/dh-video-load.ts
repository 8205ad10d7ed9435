// npm run bench, section i: a digital-human video of about 30 seconds with
// the embedded provider, through the API (`POST /digital_human/video_add`) and the server's
// in-process job worker (scripts/bench/video-server.ts runs the app's kinds, `dh-video` among
// them).
// (a) Making time (the job's start to done, the server's clock: speech, render, store, settle)
//     against the video's own duration: target ≤ 1×. Also add → done.
// (b) The API's trivial endpoint (GET /platform/get_account) p95 while the video is made against
//     its idle p95: target ≤ 2×.
// Its own database and files (SQLite, or PostgreSQL with BENCH_DATABASE_URL), the real server in
// a child process, real HTTP. The avatar is the embedded provider's clone of a generated
// presenter video, the voice its first public voice. Never fails on slow numbers.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DhVideoDetail } from '../../src/api/contract/digital-human';
import { loadConfig } from '../../server/platform/config';
import type { DbHandle } from '../../server/platform/db/connection';
import { runNiced } from '../../server/platform/jobs/child-process';
import { createDigitalHumanProvider } from '../../server/integrations/digital-human';
import { createFileStorage } from '../../server/platform/storage/create';
import { newFileKey } from '../../server/platform/storage/keys';
import {
  ApiClient,
  busyVsIdle,
  closedLoop,
  loadAverage,
  pollDetail,
  printSummary,
  requestsP50P95,
  runBench,
  sec,
  trivialRequest,
  type LoadResult,
  type SummaryRow,
} from './http-load';
import {
  benchServerEnv,
  loginAs,
  openBenchDatabase,
  startBenchServer,
  type BenchServer,
} from './bench-setup';

/** x264 preset of the server's renders (the product's default: veryfast). */
const PRESET = process.env.BENCH_DH_PRESET ?? 'veryfast';
const CLIENTS = Number(process.env.BENCH_DH_CLIENTS ?? 10);
const IDLE_REQUESTS = 2000;
const POLL_MS = 500;
const SPEED_TARGET = 1;
const P95_TARGET = 2;
/** About 30 s of English speech (espeak-ng at the default speed; 23 s without the sentence on orders). */
const TEXT =
  'Welcome to our live room. Today we are happy to show you the new spring collection. ' +
  'Every piece is made from light and breathable fabric, so you stay comfortable all day long. ' +
  'The colours are fresh and easy to match with what you already have. ' +
  'If you order before the end of this week, you get free delivery and a small gift. ' +
  'Our team checks every order by hand before it leaves the warehouse, and returns are free for ' +
  'thirty days. Follow our channel to hear about the next offers first. Thank you for watching, ' +
  'and see you soon.';

interface Things {
  avatar: number;
  voice: number;
  folder: number;
}

/** The demo data, the merchant's avatar (cloned by the embedded provider), a voice, a folder. */
function prepare() {
  return openBenchDatabase(
    'vc-bench-dh-',
    async (handle: DbHandle, now, dataDir): Promise<Things> => {
      const { db } = handle;
      const merchant = Number(
        (
          await db
            .selectFrom('users')
            .select('id')
            .where('username', '=', 'merchant')
            .executeTakeFirstOrThrow()
        ).id,
      );
      const config = { ...loadConfig(), dataDir };
      const provider = createDigitalHumanProvider({
        ...config,
        digitalHuman: { ...config.digitalHuman, provider: 'embedded' },
      });
      const storage = createFileStorage(config, () => Date.now());
      const media = path.join(dataDir, 'media');
      await fs.mkdir(media);
      const presenter = path.join(media, 'presenter.mp4');
      await runNiced('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=25:duration=6'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=220:duration=6'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
        ...['-shortest', presenter],
      ]);
      const work = path.join(media, 'clone');
      await fs.mkdir(work);
      const clone = await provider.cloneImage(
        { video: { path: presenter }, tier: 'standard' },
        { workDir: work },
      );
      const put = async (file: string, contentType: string) => {
        const key = newFileKey('dh', now);
        await storage.put(key, await fs.readFile(file), { contentType });
        return key;
      };
      const avatar = await db
        .insertInto('dh_image_clones')
        .values({
          owner_id: merchant,
          name: '主播',
          tier: 'standard',
          video_id: 1,
          consent_video_id: 1,
          poster_key: await put(clone.posterPath, 'image/jpeg'),
          loop_key: await put(clone.loopPath, 'video/mp4'),
          width: clone.width,
          height: clone.height,
          vendor_ref: null,
          status: 'ready',
          provider: provider.name,
          billing: 'settled',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const publicVoice = provider.publicVoices()[0];
      if (!publicVoice) throw new Error('the embedded provider has no public voice');
      const voice = await db
        .insertInto('dh_voice_clones')
        .values({
          owner_id: null,
          public_key: `bench:${publicVoice.key}`,
          name: publicVoice.name['en-US'],
          gender: publicVoice.gender,
          profile: JSON.stringify(publicVoice.profile),
          status: 'ready',
          provider: provider.name,
          billing: 'settled',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const folder = await db
        .insertInto('resource_groups')
        .values({ owner_id: merchant, name: 'bench', created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { avatar: Number(avatar.id), voice: Number(voice.id), folder: Number(folder.id) };
    },
  );
}

async function main(): Promise<void> {
  console.log(`   load average before: ${loadAverage()}`);
  const bench = await prepare();
  let server: BenchServer | undefined;
  let client: ApiClient | undefined;
  try {
    server = await startBenchServer('video-server.ts', {
      ...benchServerEnv(bench),
      VIDEO_RENDER_PRESET: PRESET,
      DH_PROVIDER: 'embedded',
    });
    client = new ApiClient(server.base, CLIENTS + 2);
    const token = await loginAs(client, 'merchant');
    console.log(
      `   server pid ${server.pid} (${bench.handle.engine}); x264 preset ${PRESET}; load average ` +
        `at start: ${loadAverage()}`,
    );
    const trivial = trivialRequest(client, token);
    await closedLoop(CLIENTS, 2000, trivial); // warm-up
    const idle: LoadResult[] = [await closedLoop(CLIENTS, IDLE_REQUESTS / 2, trivial)];

    const body = {
      name: 'bench 30 s',
      text: TEXT,
      avatar_id: bench.avatar,
      voice_id: bench.voice,
      speed: 1,
      volume: 1,
      subtitles: true,
      folder_id: bench.folder,
    };
    const estimate = await client.call<{ seconds: number }>(
      'POST',
      '/digital_human/video_estimate',
      {
        token,
        body,
      },
    );
    if (estimate.status !== 200 || estimate.json.code !== 1) {
      throw new Error(`estimate answered ${estimate.status} ${estimate.json.msg}`);
    }
    const sentAt = Date.now();
    const added = await client.call<{ id: number }>('POST', '/digital_human/video_add', {
      token,
      body,
    });
    if (added.status !== 200 || added.json.code !== 1) {
      throw new Error(`add answered ${added.status} ${added.json.msg}`);
    }
    const id = added.json.data.id;
    const busy: LoadResult[] = [];
    let finished = false;
    const load = (async () => {
      while (!finished) busy.push(await closedLoop(CLIENTS, 100, trivial));
    })();
    const detail = await pollDetail<DhVideoDetail>(
      client,
      token,
      '/digital_human/video_detail',
      id,
      (d) => d.status === 'done' || d.status === 'failed',
      POLL_MS,
    );
    finished = true;
    await load;
    idle.push(await closedLoop(CLIENTS, IDLE_REQUESTS / 2, trivial));
    if (detail.status !== 'done') {
      throw new Error(`the video failed: ${detail.reason} — ${detail.reason_detail}`);
    }
    const row = await bench.handle.db
      .selectFrom('dh_videos')
      .select(['started_at', 'finished_at', 'duration_ms', 'speech_ms'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const making = (Number(row.finished_at) - Number(row.started_at)) / 1000;
    const addToDone = (Number(row.finished_at) - sentAt) / 1000;
    const duration = Number(row.duration_ms) / 1000;
    console.log(
      `   video ${id}: estimated ${estimate.json.data.seconds} s, made ${sec(duration)} ` +
        `(${detail.width}×${detail.height}), settled ${detail.settled} s; job start → done ` +
        `${sec(making)}; add → done ${sec(addToDone)}`,
    );
    const p95 = busyVsIdle('b. trivial endpoint p95, making vs idle', idle, busy, P95_TARGET);
    console.log(
      `   GET /platform/get_account, ${CLIENTS} clients: idle ${requestsP50P95(p95.idle)}; ` +
        `while the video was made: ${requestsP50P95(p95.busy)}; failures ${p95.failures.length}`,
    );
    const speedRatio = making / duration;
    const rows: SummaryRow[] = [
      {
        measure: 'a. making time ÷ video duration',
        baseline: sec(duration),
        measured: sec(making),
        ratio: `${speedRatio.toFixed(2)}×`,
        target: `≤ ${SPEED_TARGET}×`,
        met: speedRatio <= SPEED_TARGET,
      },
      p95.row,
    ];
    console.log('\n   summary');
    printSummary(rows, 42);
    console.log(`\n   load average at the end: ${loadAverage()} (2 cores, shared)`);
  } finally {
    client?.close();
    await server?.stop();
    await bench.cleanup();
  }
}

runBench(main);
