import type { MixedTaskBody, MixMode } from '../api/contract/video-tasks';
import {
  COMMON,
  common,
  createTaskFormMachine,
  num,
  optionalNum,
  type CheckedDraft,
  type CommonDraft,
  type Picked,
} from './task-form';

/**
 * The mixed-cut create form: its draft (shot groups of picked clips, intro, outro,
 * mode, count, advanced length, and what both forms share), the body it makes, and its task-form
 * machine (a drawer: closed until opened, closed again once the task is added).
 */
export interface ShotGroupDraft {
  key: number;
  shots: Picked[];
  duration: string;
}

export interface MixedDraft extends CommonDraft {
  mode: MixMode;
  count: string;
  groups: ShotGroupDraft[];
  intro: Picked | null;
  outro: Picked | null;
  /** Advanced mode: every output this long (seconds); empty: the shots' own lengths. */
  duration: string;
}

export const freshMixedDraft = (): MixedDraft => ({
  ...COMMON,
  mode: 'random',
  count: '3',
  groups: [{ key: 1, shots: [], duration: '' }],
  intro: null,
  outro: null,
  duration: '',
});

/** The mixed-cut body of a draft (the name given: the estimate prices without it). */
export function mixedBody(d: MixedDraft, name = d.name): MixedTaskBody {
  const duration = optionalNum(d.duration);
  return {
    kind: 'mixed',
    ...common(d, name),
    mode: d.mode,
    count: num(d.count),
    ...(d.intro ? { intro_id: d.intro.id } : {}),
    ...(d.outro ? { outro_id: d.outro.id } : {}),
    shot_groups: d.groups.map((g) => {
      const seconds = optionalNum(g.duration);
      return {
        resource_ids: g.shots.map((s) => s.id),
        ...(seconds === undefined ? {} : { duration: seconds }),
      };
    }),
    ...(duration === undefined ? {} : { duration }),
  };
}

/** The form's machine with the contract's check (given by the area: machines stay pure). */
export const createMixedTaskFormMachine = (check: (d: MixedDraft) => CheckedDraft<MixedTaskBody>) =>
  createTaskFormMachine<MixedDraft, MixedTaskBody>('mixedTaskForm', {
    fresh: freshMixedDraft,
    check,
    page: false,
  });
