import type { DhVideo, DhVideoDetail, DhVideoStatus } from '../../api/contract/digital-human';
import { createTaskDetailMachine } from '../video-tasks/task-detail';
import { createTaskWatchMachine } from '../video-tasks/task-watch';

/**
 * The digital-human videos' live queue position and progress: the video tasks' watch
 * and detail machines (src/machines/video-tasks) over digital-human videos. While any video on
 * show is queued or creating the area asks every 2 s (longer after failed checks) and stops when
 * none is; the open video's detail (the player) takes the newer copy.
 */
export const dhVideoWatchMachine = createTaskWatchMachine<DhVideo, DhVideoDetail>('dhVideoWatch');
export const dhVideoDetailMachine = createTaskDetailMachine<DhVideoDetail>('dhVideoDetail');

/** A video still to make: watched. */
export const ACTIVE_DH_STATUSES: readonly DhVideoStatus[] = ['queued', 'creating'];
export const isDhActive = (status: DhVideoStatus) => ACTIVE_DH_STATUSES.includes(status);
