/**
 * Compile-time checks of the typed job queue (docs/architecture.md §The path of a job), run by `npm run
 * typecheck`: each `@ts-expect-error` fails the typecheck when the line it marks compiles, that
 * is when enqueuing an undeclared kind or the wrong data stops being a type error.
 */
import { z } from 'zod';
import { defineJob, type Jobs } from '../../server/platform/jobs/define-job';

const render = defineJob('render', z.strictObject({ outputId: z.number() }));

export async function typedEnqueueChecks(jobs: Jobs): Promise<void> {
  await jobs.enqueue(render, { outputId: 1 });
  // @ts-expect-error an undeclared kind (a string) is not a job definition
  await jobs.enqueue('render', { outputId: 1 });
  // @ts-expect-error the wrong data for the kind
  await jobs.enqueue(render, { outputId: '1' });
  // @ts-expect-error data the kind does not have
  await jobs.enqueue(render, { id: 1 });
}
