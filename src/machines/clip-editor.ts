import type { ClipTaskBody } from '../api/contract/video-tasks';
import {
  COMMON,
  common,
  createTaskFormMachine,
  num,
  type CheckedDraft,
  type CommonDraft,
  type Picked,
} from './task-form';

/**
 * The clip editor (/creation/mixedshear): its draft (one picked video, the part kept,
 * stickers and what both forms share), the body it makes, and its task-form machine (a page:
 * open from the start, a fresh draft once the task is added).
 */
export interface ClipDraft extends CommonDraft {
  video: Picked | null;
  start: string;
  end: string;
}

export const freshClipDraft = (): ClipDraft => ({ ...COMMON, video: null, start: '0', end: '' });

/** The clip body of a draft (the name given: the estimate prices without it). */
export function clipBody(d: ClipDraft, name = d.name): ClipTaskBody {
  return {
    kind: 'clip',
    ...common(d, name),
    resource_id: d.video?.id ?? Number.NaN,
    trim: { start: num(d.start), end: num(d.end) },
  };
}

/** The editor's machine with the contract's check (given by the area: machines stay pure). */
export const createClipEditorMachine = (check: (d: ClipDraft) => CheckedDraft<ClipTaskBody>) =>
  createTaskFormMachine<ClipDraft, ClipTaskBody>('clipEditor', {
    fresh: freshClipDraft,
    check,
    page: true,
  });
