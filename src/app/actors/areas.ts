/**
 * The per-area actor modules' registry (docs/architecture.md rule 2, docs/decisions.md "Per-area actor
 * modules"). An area (recharge, cards, money, customers, dashboard) is one module under
 * src/app/actors that creates its actors with the real endpoints provided; the registry creates
 * each area once, on first use (so the login page never loads an area's code: only that area's
 * lazily loaded views import its module), keeps it across tabs and navigation, and stops every
 * area when the signed-in user changes (logout, another login), so no user's data or running
 * task outlives the session. Tests give an area fake endpoints with `provideArea`.
 */
import { useSyncExternalStore } from 'react';
import type { AnyActorRef, Subscription } from 'xstate';
import { useAppActors, type AppActors } from './actors-context';

/** What every area module's actors have: a way to stop all of them and their wiring. */
export interface AreaActors {
  stop(): void;
}

/**
 * An area: its key, its real endpoints (a function, so the API module is only called on first
 * use) and how its actors are made from endpoints. `create` may reach other areas through `areas`
 * (the money area wires the recharge and cards areas' events to its own reloads).
 */
export interface AreaDef<E, A extends AreaActors> {
  key: string;
  live: () => E;
  create: (endpoints: E, areas: AreaRegistry) => A;
}

export function defineArea<E, A extends AreaActors>(def: AreaDef<E, A>): AreaDef<E, A> {
  return def;
}

export interface AreaRegistry {
  /** The area's actors, created on first use with the endpoints provided (else the real ones). */
  get<E, A extends AreaActors>(def: AreaDef<E, A>): A;
  /** Tests: make this area (now and after every reset) from these endpoints. */
  provide<E, A extends AreaActors>(def: AreaDef<E, A>, endpoints: E): void;
  /** Stops every area; the next `get` makes them afresh. */
  reset(): void;
  subscribe(listener: () => void): () => void;
  /** Changes at each reset (views re-read their area's actors). */
  version(): number;
}

export function createAreaRegistry(): AreaRegistry {
  const created = new Map<string, AreaActors>();
  const provided = new Map<string, unknown>();
  const listeners = new Set<() => void>();
  let version = 0;
  const registry: AreaRegistry = {
    get<E, A extends AreaActors>(def: AreaDef<E, A>): A {
      let area = created.get(def.key) as A | undefined;
      if (!area) {
        const endpoints = provided.has(def.key) ? (provided.get(def.key) as E) : def.live();
        area = def.create(endpoints, registry);
        created.set(def.key, area);
      }
      return area;
    },
    provide(def, endpoints) {
      provided.set(def.key, endpoints);
      created.get(def.key)?.stop();
      created.delete(def.key);
    },
    reset() {
      if (created.size === 0) return;
      for (const area of created.values()) area.stop();
      created.clear();
      version++;
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
  };
  return registry;
}

const registries = new WeakMap<AppActors, AreaRegistry>();

/**
 * The registry of these app actors, made on first use (main.tsx and the shell never import it).
 * It follows the auth actor: a change of signed-in user (or none) stops every area.
 */
export function areasOf(actors: AppActors): AreaRegistry {
  let registry = registries.get(actors);
  if (!registry) {
    const made = createAreaRegistry();
    let user = actors.auth.getSnapshot().context.user?.accountId ?? null;
    actors.auth.subscribe((snapshot) => {
      const next = snapshot.context.user?.accountId ?? null;
      if (next === user) return;
      const before = user;
      user = next;
      // Signing in after nobody (a restored session) leaves nothing of another user behind.
      if (before !== null) made.reset();
    });
    registries.set(actors, made);
    registry = made;
  }
  return registry;
}

/** Tests: the area of these app actors runs on `endpoints`. */
export function provideArea<E, A extends AreaActors>(
  actors: AppActors,
  def: AreaDef<E, A>,
  endpoints: E,
): void {
  areasOf(actors).provide(def, endpoints);
}

/** A view's area actors (created on first use; new ones after a change of user). */
export function useArea<E, A extends AreaActors>(def: AreaDef<E, A>): A {
  const registry = areasOf(useAppActors());
  useSyncExternalStore(registry.subscribe, registry.version, registry.version);
  return registry.get(def);
}

type Makers = Record<string, () => AnyActorRef>;
type Made<M extends Makers> = { [K in keyof M]: ReturnType<M[K]> };

/**
 * An area's actors, each made and started on first use: a list starts loading only when a view
 * first shows it (an admin's list is never fetched for a merchant). `wire` subscribes an actor to
 * what follows its changes, once it is made; `started` gives an actor only if it was made (a reload
 * of a list nobody has shown is no reload). `stop` ends the wiring, then the actors.
 */
export function lazyActors<M extends Makers>(
  makers: M,
  wire: (
    actors: Made<M>,
    started: <K extends keyof M>(key: K) => ReturnType<M[K]> | undefined,
  ) => { [K in keyof M]?: (actor: ReturnType<M[K]>) => Subscription[] } = () => ({}),
): Made<M> & AreaActors {
  const made = new Map<keyof M, AnyActorRef>();
  const subscriptions: Subscription[] = [];
  const started = <K extends keyof M>(key: K) => made.get(key) as ReturnType<M[K]> | undefined;
  const actors = {} as Made<M> & AreaActors;
  const wiring = wire(actors, started);
  for (const key of Object.keys(makers) as (keyof M)[]) {
    Object.defineProperty(actors, key, {
      enumerable: true,
      get() {
        let actor = made.get(key);
        if (!actor) {
          actor = makers[key]();
          made.set(key, actor);
          actor.start();
          subscriptions.push(...(wiring[key]?.(actor as ReturnType<M[typeof key]>) ?? []));
        }
        return actor;
      },
    });
  }
  actors.stop = () => {
    subscriptions.splice(0).forEach((s) => s.unsubscribe());
    made.forEach((actor) => actor.stop());
    made.clear();
  };
  return actors;
}
