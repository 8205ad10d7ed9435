/**
 * Actors the area modules make again and again: a server-paginated list, one loaded piece of
 * data, a dialog's call (the customer dialog machine) and a form's submission, each with its
 * endpoint provided. They are created, not started: `startAll` (areas.ts) starts an area's actors
 * together. `whenCounted` and `toast` are the wiring an area uses after a change.
 */
import { createActor, fromPromise, type AnyActorRef, type Subscription } from 'xstate';
import { notify, type NoticeType } from '../../components/toaster';
import { currentIntl, formatText } from '../../i18n/intl';
import {
  createCustomerDialogMachine,
  type CustomerDialogForm,
} from '../../machines/customers/customer-dialog';
import { formSubmitMachine } from '../../machines/form-submit';
import {
  createListMachine,
  type ListOptions,
  type ListPage,
  type ListQuery,
} from '../../machines/list';
import { createLoadMachine } from '../../machines/load';

export type FetchPage<F, R> = (query: ListQuery<F>, signal: AbortSignal) => Promise<ListPage<R>>;

/**
 * A list actor: `fetchPage` is called with each query (and a signal that aborts it when a newer
 * query replaces it). `sizes`: the first page size, or that and the largest the API accepts.
 */
export function listActor<F, R>(
  id: string,
  fetchPage: FetchPage<F, R>,
  filters: F,
  sizes?: number | (ListOptions & { limit?: number }),
) {
  const { limit, maxLimit } =
    typeof sizes === 'number' ? { limit: sizes, maxLimit: undefined } : (sizes ?? {});
  const machine = createListMachine<F, R>(id, { maxLimit }).provide({
    actors: { fetchPage: fromPromise(({ input, signal }) => fetchPage(input, signal)) },
  });
  return createActor(machine, { input: { filters, limit } });
}
export type ListActor<F, R> = ReturnType<typeof listActor<F, R>>;

/** One piece of data loaded (again on RELOAD). */
export function loadActor<T>(id: string, load: (signal: AbortSignal) => Promise<T>) {
  return createActor(
    createLoadMachine<T>(id).provide({
      actors: { load: fromPromise(({ signal }) => load(signal)) },
    }),
  );
}
export type LoadActor<T> = ReturnType<typeof loadActor<T>>;

/**
 * A dialog's call on the customer dialog machine: `submit(target, payload)`; with `fields`, the
 * machine owns the dialog's draft and checks it (docs/architecture.md "Forms").
 */
export function dialogActor<T, P, R = unknown, F = null, G = undefined>(
  id: string,
  submit: (target: T | null, payload: P) => Promise<R>,
  fields?: CustomerDialogForm<T, P, F, G>,
) {
  return createActor(
    createCustomerDialogMachine<T, P, R, F, G>(id, fields).provide({
      actors: { submit: fromPromise(({ input }) => submit(input.target, input.payload)) },
    }),
  );
}
export type DialogActor<T, P, R = unknown, F = null, G = undefined> = ReturnType<
  typeof dialogActor<T, P, R, F, G>
>;

/** A form's submission on the form-submit machine. */
export function submitActor<P, R>(submit: (payload: P) => Promise<R>) {
  return createActor(
    formSubmitMachine.provide({
      actors: { submit: fromPromise(({ input }) => submit(input.payload as P)) },
    }),
  );
}
export type SubmitActor = ReturnType<typeof submitActor>;

/**
 * Runs `then` each time what `select` reads changes to a truthy value (a dialog's `completed`
 * count, "done:3", a sorter's `settled`): the area's reload after a change, never a view effect.
 */
export function whenChanged<A extends AnyActorRef>(
  actor: A,
  select: (snapshot: ReturnType<A['getSnapshot']>) => string | number | boolean,
  then: () => void,
): Subscription {
  let seen = select(actor.getSnapshot());
  return actor.subscribe((snapshot) => {
    const now = select(snapshot);
    if (now === seen) return;
    seen = now;
    if (now) then();
  });
}

/** A notice in the current locale (`text`: a message id or the server's sentence). */
export function toast(type: NoticeType, text: string, values?: Record<string, string | number>) {
  notify(type, formatText(currentIntl(), text, values));
}
