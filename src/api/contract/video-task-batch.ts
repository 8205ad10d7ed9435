import { z } from 'zod';
import { displayName, multilineText } from './text';
import { mixedTaskBody } from './video-tasks';
import type { ValidationMessageId } from './messages';

/**
 * Mixed-cut tasks in a batch from a CSV file (docs/domain.md §9 "Presets, batches and
 * previews"): one row per task over shared settings (the form's body), the whole file checked
 * first, one price for the batch and one ledger hold for it; each row becomes a task.
 *
 * Calls:
 * - `POST /video_task/batch_estimate {name, base, csv}` → {@link VideoTaskBatchEstimate}: every
 *   error of the file (row and column named, in the caller's language) or, when there is none,
 *   the tasks, outputs and price of the whole batch. Charges nothing.
 * - `POST /video_task/batch_add {name, base, csv}` → `{batch_id, ids}`: refused (code 0, every
 *   error in `msg`) unless the whole file is valid; else one hold of the whole price, and a task
 *   per row, in one transaction.
 * The file: UTF-8 CSV (RFC 4180 quotes), a header row naming the columns in any order (unknown
 * columns refused); rows are numbered as a spreadsheet shows them (the header is row 1).
 * {@link batchTemplate} writes the file the console offers as a template.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

/**
 * The columns of a batch file; `name` is required, the others optional per row. `subtitle`: the
 * words shown as subtitles; with a voice (the row's `voice`, else the form's narration) also the
 * script spoken. `voice`: a voice's id or exact name (a ready clone of the caller's or a public
 * voice). `music`: a music resource's id. `count`: how many videos the row makes.
 */
export const BATCH_COLUMNS = ['name', 'title', 'subtitle', 'voice', 'music', 'count'] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];

export const BATCH_LIMITS = { rows: 100, bytes: 256 * 1024 } as const;

export const videoTaskBatchBody = z.strictObject({
  name: displayName({ max: 50, message: 'validation.batchName' }),
  /** The settings every row shares (its name, titles, subtitles, music and count are the row's). */
  base: mixedTaskBody,
  csv: multilineText('validation.batchFile')
    .min(1, msg('validation.batchFile'))
    .max(BATCH_LIMITS.bytes, msg('validation.batchFile')),
});
export type VideoTaskBatchBody = z.input<typeof videoTaskBatchBody>;

// ---- replies

export const batchErrorSchema = z.object({
  /** As a spreadsheet numbers it (the header is 1); 0 for the file as a whole. */
  row: z.number(),
  /** The column (one of BATCH_COLUMNS), or '' for the row's shared settings or the file. */
  column: z.string(),
  message: z.string(),
});
export type BatchError = z.infer<typeof batchErrorSchema>;

export const videoTaskBatchEstimateSchema = z.object({
  valid: z.boolean(),
  errors: z.array(batchErrorSchema),
  /** Tasks (rows) and outputs of the whole batch, its price (money, 2 decimals), the balance. */
  tasks: z.number(),
  outputs: z.number(),
  unit_cost: z.string(),
  cost: z.string(),
  balance: z.string(),
  /**
   * With narrated rows: their speech in whole seconds (each row's estimate, summed), its price in
   * `digital_man` seconds and that balance; held per task at add (like a single task's).
   */
  narration: z.object({ seconds: z.number(), cost: z.number(), balance: z.number() }).optional(),
});
export type VideoTaskBatchEstimate = z.infer<typeof videoTaskBatchEstimateSchema>;

export const videoTaskBatchAddReplySchema = z.object({
  batch_id: z.number(),
  /** The tasks made, in the file's order. */
  ids: z.array(z.number()),
});
export type VideoTaskBatchAddReply = z.infer<typeof videoTaskBatchAddReplySchema>;

/** A CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const csvCell = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

/**
 * The batch template: a byte-order mark (spreadsheets then read it as UTF-8), the header row of
 * every column, then the example rows given (cells in BATCH_COLUMNS order), CRLF line ends.
 */
export function batchTemplate(examples: readonly (readonly string[])[]): string {
  const lines = [BATCH_COLUMNS, ...examples].map((cells) => cells.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
