import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoTaskAddReply } from '../../src/api/contract/video-tasks';
import type { Engine } from '../../server/platform/db/dialect';
import { startAppWorker } from '../../server/app-jobs';
import { api, createTestApp, engines, type TestApp } from './helpers';
import { mixedBody, putShotGroups, waitFinished } from './video-task-fixtures';
import { sha, testZip, unzipReply, zipHeaders } from './zip-fixtures';

const EN = { lang: 'en-US' };
/** Bit 3 of an entry's flags: its CRC-32 and sizes follow its bytes in a data descriptor. */
const DESCRIBED = 0x0008;

/**
 * "Download all" with the CRC-32 stored with each output (docs/decisions.md "Download all as one
 * ZIP", migration 0036): a rendered output's row carries its file's CRC-32, which the archive
 * writes in the entry's local header (no data descriptor, no checksum pass); a row without one
 * (stored before the migration) or whose file is no longer the size it was stored with is
 * checksummed as it streams; bytes changed after the CRC was taken are caught by the reader.
 */
describe.each(engines)('download all with stored CRC-32s on %s', (engine: Engine) => {
  vi.setConfig({ testTimeout: 120_000 });
  let t: TestApp;
  let token: string;
  let merchantId: number;

  beforeEach(async () => {
    t = await createTestApp(engine, {
      config: { videoRenderPreset: 'ultrafast' },
      jobs: { timing: { pollMs: 20 } },
    });
    merchantId = (await t.user('merchant')).id;
    token = await t.login('merchant');
  });
  afterEach(async () => {
    await t.close();
  });

  const pathOf = (key: string) => t.app.ctx.storage.localFiles!.path(key);
  const outputRows = (taskId: number) =>
    t.db
      .selectFrom('video_outputs')
      .select(['id', 'idx', 'storage_key', 'size', 'crc32'])
      .where('task_id', '=', taskId)
      .orderBy('idx')
      .execute();
  const setCrc = (id: number, value: number | null) =>
    t.db.updateTable('video_outputs').set({ crc32: value }).where('id', '=', id).execute();

  async function download(url: string): Promise<Buffer> {
    const reply = await t.app.inject({ method: 'GET', url });
    expect(reply.statusCode, reply.body.slice(0, 200)).toBe(200);
    expect(Number(reply.headers['content-length'])).toBe(reply.rawPayload.length);
    return reply.rawPayload;
  }

  it('writes a rendered output’s stored CRC-32 in its header, checksums older rows as they stream, and lets the reader catch changed bytes', async () => {
    const groups = await putShotGroups(t, merchantId);
    const reply = await t.call<VideoTaskAddReply>('POST', api('/video_task/add'), {
      token,
      headers: EN,
      body: mixedBody(groups.slice(0, 2), { count: 2, name: 'Crc' }),
    });
    expect(reply.body.code, reply.raw).toBe(1);
    startAppWorker(t.app.ctx, { everyMs: 200 });
    const task = await waitFinished(t, token, reply.body.data.id);
    expect(task.status, JSON.stringify(task.outputs)).toBe('done');
    const [first, second] = await outputRows(task.id);
    const files = [first!, second!].map((o) => pathOf(o.storage_key!));

    // ---- the render stored each file's CRC-32 and size on its row
    for (const [i, row] of [first!, second!].entries()) {
      const bytes = await fs.readFile(files[i]!);
      expect(Number(row.crc32)).toBe(crc32(bytes));
      expect(Number(row.size)).toBe(bytes.length);
    }

    // ---- over a real socket: the API's headers, every byte (the writer reuses its read buffer)
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const fetched = await fetch(`http://127.0.0.1:${port}${task.download_all_url!}`);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/zip');
    expect(fetched.headers.get('cache-control')).toBe('no-store');
    expect(fetched.headers.get('x-content-type-options')).toBe('nosniff');
    expect(fetched.headers.get('content-disposition')).toMatch(/^attachment; filename="Crc\.zip"/);
    const overHttp = Buffer.from(await fetched.arrayBuffer());
    expect(overHttp.length).toBe(Number(fetched.headers.get('content-length')));

    // ---- both in their local headers: no data descriptor; the archive checks out (unzip -t)
    let zip = await download(task.download_all_url!);
    expect(sha(overHttp)).toBe(sha(zip));
    let headers = zipHeaders(zip);
    expect(headers.map((h) => [h.name, h.localFlags & DESCRIBED, h.localCrc, h.localSize])).toEqual(
      [
        ['Crc-1.mp4', 0, Number(first!.crc32), Number(first!.size)],
        ['Crc-2.mp4', 0, Number(second!.crc32), Number(second!.size)],
      ],
    );
    expect(headers.map((h) => h.flags)).toEqual(headers.map((h) => h.localFlags));
    let entries = await unzipReply(zip);
    expect(sha(entries.get('Crc-1.mp4')!)).toBe(sha(await fs.readFile(files[0]!)));
    expect(sha(entries.get('Crc-2.mp4')!)).toBe(sha(await fs.readFile(files[1]!)));

    // ---- an older row (no CRC-32: stored before migration 0036) beside a newer one
    await setCrc(Number(second!.id), null);
    zip = await download(task.download_all_url!);
    headers = zipHeaders(zip);
    expect(headers.map((h) => [h.localFlags & DESCRIBED, h.localCrc])).toEqual([
      [0, Number(first!.crc32)],
      [DESCRIBED, 0],
    ]);
    // Computed as it streamed: the same value, in the descriptor and the central directory.
    expect(headers[1]!.crc).toBe(Number(second!.crc32));
    entries = await unzipReply(zip);
    expect(sha(entries.get('Crc-2.mp4')!)).toBe(sha(await fs.readFile(files[1]!)));

    // ---- a file no longer the size its row recorded: its CRC-32 is computed again (logged)
    const warn = vi.spyOn(t.app.ctx.log, 'warn');
    await fs.appendFile(files[0]!, Buffer.from('tail'));
    zip = await download(task.download_all_url!);
    expect(zipHeaders(zip)[0]!.localFlags & DESCRIBED).toBe(DESCRIBED);
    entries = await unzipReply(zip);
    expect(sha(entries.get('Crc-1.mp4')!)).toBe(sha(await fs.readFile(files[0]!)));
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ taskId: task.id, idx: 1 }),
      expect.stringMatching(/not the size it was stored with/),
    );

    // ---- bytes changed after the render (same length): the stored CRC-32 no longer matches
    // them, and the reader says so (a CRC computed from the changed bytes would hide it).
    await setCrc(Number(second!.id), Number(second!.crc32));
    const handle = await fs.open(files[1]!, 'r+');
    const at = Buffer.alloc(1);
    await handle.read(at, 0, 1, 100);
    await handle.write(Buffer.from([at[0]! ^ 0xff]), 0, 1, 100);
    await handle.close();
    zip = await download(task.download_all_url!);
    expect(zipHeaders(zip)[1]!.localCrc).toBe(Number(second!.crc32));
    const tested = await testZip(zip);
    expect(tested.ok).toBe(false);
    expect(tested.output).toMatch(/Crc-1\.mp4 +OK/);
    expect(tested.output).toMatch(/Crc-2\.mp4 +bad CRC/);
  });
});
