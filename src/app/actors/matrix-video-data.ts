/**
 * The video data area (/matrix-distribution/video-data, docs/domain.md §20): the page's machine
 * (src/machines/matrix-video-data.ts) with its load (`GET /matrix/video_data` over the period that
 * ends now) and its export (the rows as a CSV file), and what its filters pick from: the caller's
 * accounts and plans.
 */
import { createActor, fromPromise } from 'xstate';
import type { AccountPage } from '../../api/contract/matrix';
import type { PlanPost, VideoData } from '../../api/contract/matrix-plans';
import * as matrixApi from '../../api/matrix';
import * as plansApi from '../../api/matrix-plans';
import type { PlanPage } from '../../api/matrix-plans';
import { matrixVideoDataMachine, type VideoDataFilters } from '../../machines/matrix-video-data';
import { defineArea, lazyActors } from './areas';
import { loadActor } from './factories';

export interface MatrixVideoDataEndpoints {
  getVideoData: typeof plansApi.getVideoData;
  getAccounts: typeof matrixApi.getAccounts;
  getPlans: typeof plansApi.getPlans;
  /** Now (epoch ms): the period's end. */
  now: () => number;
  /** Saves `text` as a file named `fileName`. */
  download: (text: string, fileName: string) => void;
}

/** The accounts and plans the filters offer (the list calls' largest page). */
export const VIDEO_DATA_CHOICES_SHOWN = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The call's query for these filters, the period ending at `now`. */
export function videoDataQueryOf(filters: VideoDataFilters, now: number) {
  return {
    ...(filters.accountId !== null ? { account_id: filters.accountId } : {}),
    ...(filters.planId !== null ? { plan_id: filters.planId } : {}),
    from: now - filters.period * DAY_MS,
    to: now,
  };
}

export interface VideoDataCsvOptions {
  /** The header row: published at, account, plan, title, plays, likes, comments, shares, link. */
  headers: readonly string[];
  /** An instant in the viewer's locale. */
  formatTime: (ms: number) => string;
  accountName: (id: number) => string;
  planName: (id: number) => string;
}

/** A text cell: a formula's first character made text, then quoted if it must be. */
function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The rows as a CSV file's text: UTF-8 with a byte order mark (so Excel reads Chinese), CRLF line
 * ends, the header row first; a cell starting with = + - @ gets a leading ' (no formula runs).
 */
export function videoDataCsv(rows: readonly PlanPost[], o: VideoDataCsvOptions): string {
  const lines = [o.headers.map(csvCell).join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.published_at === null ? '' : o.formatTime(r.published_at),
        o.accountName(r.account_id),
        o.planName(r.plan_id),
        r.title,
        r.metrics.plays,
        r.metrics.likes,
        r.metrics.comments,
        r.metrics.shares,
        r.share_url ?? '',
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

function createMatrixVideoDataActors(e: MatrixVideoDataEndpoints) {
  // The save action reads the plans' names from the area's own actors (made below).
  const area = lazyActors({
    accounts: () =>
      loadActor<AccountPage>('matrixVideoDataAccounts', (signal) =>
        e.getAccounts({ page: 1, limit: VIDEO_DATA_CHOICES_SHOWN }, { signal }),
      ),
    plans: () =>
      loadActor<PlanPage>('matrixVideoDataPlans', (signal) =>
        e.getPlans({ page: 1, limit: VIDEO_DATA_CHOICES_SHOWN }, { signal }),
      ),
    page: () =>
      createActor(
        matrixVideoDataMachine.provide({
          actors: {
            // The page shows a refusal itself (with a retry): no toast from the HTTP layer.
            load: fromPromise<VideoData, VideoDataFilters>(({ input, signal }) =>
              e.getVideoData(videoDataQueryOf(input, e.now()), { signal, quiet: true }),
            ),
          },
          actions: {
            save: (_, params) => {
              const names = new Map(params.data.accounts.map((a) => [a.account_id, a.nickname]));
              const plans = new Map(
                (area.plans.getSnapshot().context.data?.list ?? []).map((p) => [p.id, p.name]),
              );
              const time = new Intl.DateTimeFormat(params.locale, {
                dateStyle: 'short',
                timeStyle: 'short',
              });
              const csv = videoDataCsv(params.data.rows, {
                headers: params.headers,
                formatTime: (ms) => time.format(ms),
                accountName: (id) => names.get(id) ?? `#${id}`,
                planName: (id) => plans.get(id) ?? `#${id}`,
              });
              e.download(csv, `video-data-${new Date(e.now()).toISOString().slice(0, 10)}.csv`);
            },
          },
        }),
      ),
  });
  return area;
}

export type MatrixVideoDataActors = ReturnType<typeof createMatrixVideoDataActors>;

/** Saves a text through a temporary link to a Blob with a `download` name. */
function downloadText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const matrixVideoDataArea = defineArea<MatrixVideoDataEndpoints, MatrixVideoDataActors>({
  key: 'matrixVideoData',
  live: () => ({
    getVideoData: plansApi.getVideoData,
    getAccounts: matrixApi.getAccounts,
    getPlans: plansApi.getPlans,
    now: () => Date.now(),
    download: downloadText,
  }),
  create: (endpoints) => createMatrixVideoDataActors(endpoints),
});
