import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  VideoTaskBatchAddReply,
  VideoTaskBatchEstimate,
} from '../../src/api/contract/video-task-batch';
import { batchTemplate } from '../../src/api/contract/video-task-batch';
import { estimateSpeechSeconds } from '../../src/api/contract/digital-human';
import { reconcile } from '../../server/modules/ledger/reconcile';
import { fixtureApp, putVoice } from './dh-video-fixtures';
import { api, createTestApp, engines, snapshot, type Reply, type TestApp } from './helpers';
import { putResource } from './resource-fixtures';
import { mixedBody } from './video-task-fixtures';

/**
 * Mixed-cut tasks from a CSV file (docs/domain.md §9 "Presets, batches and previews"): the whole
 * file checked first with every error named by row and column (nothing written), the estimate
 * of the whole batch, one ledger hold for the batch equal to the sum of its tasks, a task per row;
 * narrated rows (a voice by id or name) hold their speech seconds per task, returned when the task
 * makes nothing.
 */
const EN = { lang: 'en-US' };

describe.each(engines)('video task batches on %s', (engine) => {
  let t: TestApp;
  let token: string;
  let merchant: number;
  let groups: number[][];
  let music: number;
  let voice: number;

  beforeEach(async () => {
    t = await createTestApp(engine);
    merchant = (await t.user('merchant')).id;
    token = await t.login('merchant');
    groups = [];
    for (let g = 0; g < 2; g += 1) {
      const row: number[] = [];
      for (let i = 0; i < 2; i += 1) {
        row.push((await putResource(t, merchant, { name: `g${g} s${i}`, durationMs: 2000 })).id);
      }
      groups.push(row);
    }
    music = (await putResource(t, merchant, { name: 'tune', type: 'bgm', durationMs: 5000 })).id;
    voice = await putVoice(fixtureApp(t), null, { name: 'Lily' });
  });
  afterEach(async () => {
    await t.close();
  });

  const post = <T = unknown>(url: string, body: unknown): Promise<Reply<T>> =>
    t.call<T>('POST', api(url), { token, body, headers: EN });
  const batch = (csv: string) => ({ name: 'November', base: mixedBody(groups), csv });
  const tables = async () => ({
    ...(await snapshot(t.db)),
    tasks: await t.db.selectFrom('video_tasks').selectAll().execute(),
    batches: await t.db.selectFrom('video_task_batches').selectAll().execute(),
  });

  it('names every error of the file by row and column and writes nothing', async () => {
    const csv = [
      'name,title,subtitle,voice,music,count',
      'Good one,Hello,,,,2',
      ',Hi,,,,1',
      'Too many,,,,,9',
      'Bad count,,,,,two',
      `Not music,,,,${groups[0][0]},1`,
      'Unknown voice,Hi,Hello there.,Nobody,,1',
      `Voice without script,,,${voice},,1`,
    ].join('\n');
    const before = await tables();
    const estimate = await post<VideoTaskBatchEstimate>('/video_task/batch_estimate', batch(csv));
    expect(estimate.body.code, estimate.raw).toBe(1);
    expect(estimate.body.data.valid).toBe(false);
    expect(estimate.body.data.errors).toEqual([
      { row: 3, column: 'name', message: 'Task name: 1 to 50 characters' },
      {
        row: 4,
        column: 'count',
        message: 'These shot groups make only 4 different videos: ask for at most 4',
      },
      { row: 5, column: 'count', message: 'Write a whole number' },
      {
        row: 6,
        column: 'music',
        message: '“g0 s0” is not music: choose background music or audio',
      },
      {
        row: 7,
        column: 'voice',
        message:
          'No ready voice “Nobody”: write the id or the name of one of your voices or a public voice',
      },
      {
        row: 8,
        column: 'subtitle',
        message: 'A voice speaks the subtitle column: write the script there',
      },
    ]);
    const add = await post('/video_task/batch_add', batch(csv));
    expect(add.body.code).toBe(0);
    expect(add.body.msg).toContain('The file has 6 errors');
    expect(add.body.msg).toContain('row 4, count:');
    expect(add.body.msg).toContain('row 7, voice:');
    // The header's own errors, and the file's.
    const header = await post<VideoTaskBatchEstimate>(
      '/video_task/batch_estimate',
      batch('title,colour\nHi,red'),
    );
    expect(header.body.data.errors).toEqual([
      {
        row: 1,
        column: 'colour',
        message: 'Unknown column “colour”: use name, title, subtitle, voice, music, count',
      },
      { row: 1, column: 'name', message: 'The header must have a name column' },
    ]);
    const zh = await t.call<VideoTaskBatchEstimate>('POST', api('/video_task/batch_estimate'), {
      token,
      body: batch('name,count\nA,x'),
      headers: { lang: 'zh-CN' },
    });
    expect(zh.body.data.errors).toEqual([{ row: 2, column: 'count', message: '请填写整数' }]);
    expect(await tables()).toEqual(before);
  });

  it('holds the sum of its tasks in one hold, makes a task per row, and closes it at the end', async () => {
    const csv = [
      'name,title,subtitle,music,count',
      `Row one,Hello,"Fresh flowers. New colours.",${music},2`,
      'Row two,,,,3',
      '"Row, three",Third,,,1',
    ].join('\r\n');
    const balance = async () => Number((await t.user('merchant')).money);
    const before = await balance();
    const estimate = await post<VideoTaskBatchEstimate>('/video_task/batch_estimate', batch(csv));
    expect(estimate.body.data).toMatchObject({
      valid: true,
      errors: [],
      tasks: 3,
      outputs: 6,
      unit_cost: '0.10',
      cost: '0.60',
    });
    const added = await post<VideoTaskBatchAddReply>('/video_task/batch_add', batch(csv));
    expect(added.body.code, added.raw).toBe(1);
    const { ids, batch_id } = added.body.data;
    expect(ids).toHaveLength(3);
    const tasks = await t.db
      .selectFrom('video_tasks')
      .selectAll()
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(tasks.map((r) => [r.name, Number(r.total), Number(r.frozen)])).toEqual([
      ['Row one', 2, 20],
      ['Row two', 3, 30],
      ['Row, three', 1, 10],
    ]);
    const one = JSON.parse(tasks[0].params);
    expect(one).toMatchObject({
      titles: [{ text: 'Hello' }],
      subtitles: { text: 'Fresh flowers. New colours.' },
      music_ids: [music],
    });
    const holds = await t.db
      .selectFrom('ledger_holds')
      .selectAll()
      .where('related_type', '=', 'video_task_batch')
      .execute();
    expect(holds).toHaveLength(1);
    expect(Number(holds[0].related_id)).toBe(batch_id);
    // The batch's hold = the sum of its tasks' prices; every output paid by it.
    expect(Number(holds[0].amount)).toBe(tasks.reduce((s, r) => s + Number(r.frozen), 0));
    const outputs = await t.db
      .selectFrom('video_outputs')
      .selectAll()
      .where('task_id', 'in', ids)
      .execute();
    expect(outputs).toHaveLength(6);
    expect(new Set(outputs.map((o) => Number(o.hold_id)))).toEqual(new Set([Number(holds[0].id)]));
    expect(before - (await balance())).toBe(60);
    expect(await reconcile(t.db)).toEqual([]);
    // Cancelling every task refunds each; the hold closes with the last.
    for (const id of ids) {
      const cancelled = await post('/video_task/cancel', { id });
      expect(cancelled.body.code, cancelled.raw).toBe(1);
      const hold = await t.db
        .selectFrom('ledger_holds')
        .select('closed_at')
        .where('id', '=', holds[0].id)
        .executeTakeFirstOrThrow();
      expect(hold.closed_at === null).toBe(id !== ids[ids.length - 1]);
    }
    expect(await balance()).toBe(before);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('refuses a batch the balance cannot pay, writing nothing', async () => {
    await t.db.updateTable('users').set({ money: 5 }).where('id', '=', merchant).execute();
    const before = await tables();
    const add = await post('/video_task/batch_add', batch('name,count\nA,1\nB,1'));
    expect(add.body).toMatchObject({
      code: 0,
      msg: 'Insufficient balance: this needs 0.20, the balance is 0.05',
    });
    expect(await tables()).toEqual(before);
  });

  it('speaks the subtitle column in the voice of the row (id or name), holding each task’s speech seconds', async () => {
    const mine = await putVoice(fixtureApp(t), merchant, { name: 'My voice' });
    const seconds = async () => Number((await t.user('merchant')).digital_man_seconds);
    const script = 'Fresh flowers today. Free delivery.';
    const other = 'One more line to speak here.';
    const csv = [
      'name,subtitle,voice,count',
      `By name,"${script}",Lily,2`,
      `By id,${other},${mine},1`,
      'Silent,Just words,,1',
    ].join('\n');
    const spoken = [estimateSpeechSeconds(script, 1), estimateSpeechSeconds(other, 1)];
    const before = { seconds: await seconds(), money: Number((await t.user('merchant')).money) };
    const estimate = await post<VideoTaskBatchEstimate>('/video_task/batch_estimate', batch(csv));
    expect(estimate.body.data, estimate.raw).toMatchObject({
      valid: true,
      tasks: 3,
      outputs: 4,
      cost: '0.40',
      // digital_man_cost is 1 second per second.
      narration: { seconds: spoken[0] + spoken[1], cost: spoken[0] + spoken[1] },
    });
    const added = await post<VideoTaskBatchAddReply>('/video_task/batch_add', batch(csv));
    expect(added.body.code, added.raw).toBe(1);
    const tasks = await t.db
      .selectFrom('video_tasks')
      .selectAll()
      .where('id', 'in', added.body.data.ids)
      .orderBy('id')
      .execute();
    const params = tasks.map((r) => JSON.parse(r.params));
    expect(params[0]).toMatchObject({
      narration: { text: script, voice_id: voice, speed: 1, volume: 1 },
      // The script's sentences are the subtitles (timed to the speech), not a copy of the text.
      subtitles: {},
    });
    expect(params[0].subtitles.text).toBeUndefined();
    expect(params[1]).toMatchObject({ narration: { text: other, voice_id: mine } });
    expect(params[2]).toMatchObject({ subtitles: { text: 'Just words' } });
    expect(params[2].narration).toBeUndefined();
    expect(tasks.map((r) => Number(r.narration_price))).toEqual([1, 1, 0]);
    // Each narrated task holds its own speech; the money is the batch's one hold.
    const holds = await t.db
      .selectFrom('ledger_holds')
      .selectAll()
      .where('asset', '=', 'digital_man')
      .orderBy('related_id')
      .execute();
    expect(holds.map((h) => [h.related_type, Number(h.related_id), Number(h.amount)])).toEqual([
      ['video_task', tasks[0].id, spoken[0]],
      ['video_task', tasks[1].id, spoken[1]],
    ]);
    expect(before.seconds - (await seconds())).toBe(spoken[0] + spoken[1]);
    expect(await reconcile(t.db)).toEqual([]);
    // Nothing made: the speech seconds come back with the money.
    for (const id of added.body.data.ids) {
      expect((await post('/video_task/cancel', { id })).body.code).toBe(1);
    }
    expect(await seconds()).toBe(before.seconds);
    expect(Number((await t.user('merchant')).money)).toBe(before.money);
    expect(await reconcile(t.db)).toEqual([]);
  });

  it('refuses narrated rows the speech balance cannot pay, writing nothing', async () => {
    await t.db
      .updateTable('users')
      .set({ digital_man_seconds: 3 })
      .where('id', '=', merchant)
      .execute();
    const before = await tables();
    const csv = 'name,subtitle,voice,count\nA,Hello there friends. Good morning to you all.,Lily,1';
    const add = await post('/video_task/batch_add', batch(csv));
    expect(add.body.code).toBe(0);
    expect(add.body.msg).toMatch(
      /^Not enough digital-human seconds: this needs \d+ s, the balance is 3 s$/,
    );
    expect(await tables()).toEqual(before);
  });

  it('accepts the console’s template as it is', async () => {
    const template = batchTemplate([
      ['Example 1', 'Spring sale', 'Fresh flowers, every day. Free delivery.', '', '', '2'],
    ]);
    const estimate = await post<VideoTaskBatchEstimate>(
      '/video_task/batch_estimate',
      batch(template),
    );
    expect(estimate.body.data, estimate.raw).toMatchObject({ valid: true, errors: [], tasks: 1 });
  });
});
