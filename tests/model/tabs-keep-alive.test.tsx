/**
 * Kept pages through the real shell and a data router whose guard (the root loader) the test holds
 * open: a tab picked in the tab bar shows its kept page at once, before the router's navigation
 * arrives, and nothing visible changes when it does; the other ways to a page (the menu, the
 * address bar, back) wait for the router as before; a page not on show reads its own location;
 * the router's updates do not render the page on show, nor the shell's parts that navigate, again.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { memo } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createActor } from 'xstate';
import { Providers } from '../../src/app/boot/providers';
import { KeepAliveOutlet } from '../../src/app/shell/keep-alive-outlet';
import { ShellRouteContext } from '../../src/app/shell/shell-route-context';
import { Shell } from '../../src/app/shell/shell';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { settingsMachine } from '../../src/machines/settings';
import { appActors, flush } from './view-harness';

const HOME = '/home/index';
const MERCHANTS = '/promotion/merchant';
const USER_INFO = '/user/info';

/** Renders of each page, and the path each one last read. */
const seen = { renders: {} as Record<string, number>, location: {} as Record<string, string> };

function PageBody(props: { name: string }) {
  seen.renders[props.name] = (seen.renders[props.name] ?? 0) + 1;
  return (
    <section aria-label={props.name}>
      <input aria-label={`${props.name} notes`} />
    </section>
  );
}

/** Home reads its location (as pages with a query do). */
function LocationPage() {
  seen.location.Home = useLocation().pathname;
  return <PageBody name="Home" />;
}

/** User info reads nothing from the router. */
function PlainPage() {
  return <PageBody name="User info" />;
}

function ElsewherePage() {
  return <PageBody name="Elsewhere" />;
}

/** Merchants navigates (as pages with buttons to other pages do). */
function NavigatingPage() {
  useNavigate();
  return <PageBody name="Merchants" />;
}

/** The guard: passes at once unless held; a held navigation waits for release(). */
function heldGuard() {
  let held = false;
  const waiting: (() => void)[] = [];
  return {
    loader: () => (held ? new Promise<null>((resolve) => waiting.push(() => resolve(null))) : null),
    hold: () => {
      held = true;
    },
    release: async () => {
      held = false;
      await act(async () => {
        waiting.splice(0).forEach((resolve) => resolve());
        await vi.advanceTimersByTimeAsync(0);
      });
    },
  };
}

function renderConsole(guard: ReturnType<typeof heldGuard>) {
  const settings = createActor(settingsMachine, { input: { stored: { tabBar: true } } }).start();
  const actors = appActors({ settings });
  const router = createMemoryRouter(
    [
      {
        id: 'root',
        loader: guard.loader,
        shouldRevalidate: () => true,
        Component: Shell,
        children: [
          // Components, as the console's lazy routes give them: the router makes their elements.
          { path: HOME, Component: LocationPage },
          { path: MERCHANTS, Component: NavigatingPage },
          { path: USER_INFO, Component: PlainPage },
          { path: '*', Component: ElsewherePage },
        ],
      },
    ],
    { initialEntries: [HOME] },
  );
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, actors };
}

function page(name: string): HTMLElement {
  const section = document.querySelector<HTMLElement>(`section[aria-label="${name}"]`);
  if (!section) throw new Error(`no page ${name}`);
  return section;
}
/** Shown: not inside a hidden Activity boundary (React hides it with display: none). */
function isShown(name: string) {
  for (let el: HTMLElement | null = page(name); el; el = el.parentElement)
    if (el.style.display === 'none') return false;
  return true;
}
const tab = (name: string) =>
  within(screen.getByRole('tablist', { name: enUS['tabs.label'] })).getByRole('tab', {
    name,
    hidden: true,
  });

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
  seen.renders = {};
  seen.location = {};
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** One frame (animation callbacks, then the tasks after the paint). */
async function nextFrame() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(20);
  });
}

/** The menu, the address bar or back: a navigation by the router, held by the guard. */
async function routerNavigates(router: ReturnType<typeof createMemoryRouter>, to: string | number) {
  await act(async () => {
    void (typeof to === 'number' ? router.navigate(to) : router.navigate(to));
    await vi.advanceTimersByTimeAsync(0);
  });
}

async function homeThenMerchants(router: ReturnType<typeof createMemoryRouter>) {
  await flush();
  await act(() => router.navigate(MERCHANTS));
  await flush();
  expect(isShown('Merchants')).toBe(true);
  expect(isShown('Home')).toBe(false);
}

describe('a kept page behind a tab', () => {
  test('shows at once when its tab is picked, before the navigation arrives; the same page after', async () => {
    const guard = heldGuard();
    const { router, actors } = renderConsole(guard);
    await homeThenMerchants(router);
    const notes = screen.getByRole('textbox', { name: 'Home notes', hidden: true });
    fireEvent.change(notes, { target: { value: 'typed on Home' } });

    guard.hold();
    fireEvent.click(tab(enUS['route.home']));
    // No timer, no router: the click's own render shows Home and selects its tab.
    expect(isShown('Home')).toBe(true);
    expect(isShown('Merchants')).toBe(false);
    expect(tab(enUS['route.home']).getAttribute('aria-selected')).toBe('true');
    // The router's navigation starts once that frame is painted.
    await flush();
    expect(router.state.navigation.state).toBe('idle');
    await nextFrame();
    expect(router.state.location.pathname).toBe(MERCHANTS);
    expect(router.state.navigation.state).toBe('loading');
    // Shown ahead of the router, Home still reads its own location.
    expect(seen.location.Home).toBe(HOME);

    await guard.release();
    expect(router.state.location.pathname).toBe(HOME);
    expect(isShown('Home')).toBe(true);
    expect(isShown('Merchants')).toBe(false);
    // Kept: the same element with what was typed.
    expect(screen.getByRole('textbox', { name: 'Home notes' })).toBe(notes);
    expect((notes as HTMLInputElement).value).toBe('typed on Home');
    expect(actors.tabs.getSnapshot().context.active).toBe(HOME);
  });

  test('the arrow keys too; the menu used right after goes where the router ends', async () => {
    const guard = heldGuard();
    const { router, actors } = renderConsole(guard);
    await homeThenMerchants(router);

    guard.hold();
    fireEvent.keyDown(tab(enUS['route.merchant']), { key: 'ArrowLeft' });
    expect(isShown('Home')).toBe(true);
    // The menu (or the address bar) to Merchants before Home's navigation started: the router decides.
    await routerNavigates(router, MERCHANTS);
    await nextFrame();
    await guard.release();
    await nextFrame();
    expect(router.state.location.pathname).toBe(MERCHANTS);
    expect(isShown('Merchants')).toBe(true);
    expect(isShown('Home')).toBe(false);
    expect(actors.tabs.getSnapshot().context.active).toBe(MERCHANTS);
  });

  test.each([
    ['another tab', USER_INFO, 'User info'],
    ['a page that is not a tab', '/elsewhere/1', 'Elsewhere'],
  ])(
    'a tab picked, then the menu to %s done before the frame: where the menu went',
    async (_, path, name) => {
      const guard = heldGuard();
      const { router } = renderConsole(guard);
      await homeThenMerchants(router);

      fireEvent.click(tab(enUS['route.home']));
      await act(() => router.navigate(path));
      expect(router.state.location.pathname).toBe(path);
      await nextFrame();
      await flush();
      expect(router.state.location.pathname).toBe(path);
      expect(isShown(name)).toBe(true);
      expect(isShown('Home')).toBe(false);
    },
  );

  test('a tab picked while a navigation of the router is under way: the tab wins', async () => {
    const guard = heldGuard();
    const { router, actors } = renderConsole(guard);
    await homeThenMerchants(router);

    guard.hold();
    await routerNavigates(router, USER_INFO);
    fireEvent.click(tab(enUS['route.home']));
    expect(isShown('Home')).toBe(true);
    await nextFrame();
    await guard.release();
    await nextFrame();
    expect(router.state.location.pathname).toBe(HOME);
    expect(isShown('Home')).toBe(true);
    expect(actors.tabs.getSnapshot().context.active).toBe(HOME);
  });

  test('tabs picked one after the other: the last one', async () => {
    const guard = heldGuard();
    const { router } = renderConsole(guard);
    await homeThenMerchants(router);
    await act(() => router.navigate(USER_INFO));
    await flush();

    fireEvent.click(tab(enUS['route.home']));
    fireEvent.click(tab(enUS['route.merchant']));
    expect(isShown('Merchants')).toBe(true);
    expect(isShown('Home')).toBe(false);
    await nextFrame();
    await flush();
    expect(router.state.location.pathname).toBe(MERCHANTS);
    expect(isShown('Merchants')).toBe(true);
  });

  test('a navigation by the router (menu, address bar, back) still waits for the guard', async () => {
    const guard = heldGuard();
    const { router } = renderConsole(guard);
    await homeThenMerchants(router);

    guard.hold();
    await routerNavigates(router, -1);
    expect(router.state.navigation.state).toBe('loading');
    expect(isShown('Merchants')).toBe(true);
    expect(isShown('Home')).toBe(false);
    await guard.release();
    expect(router.state.location.pathname).toBe(HOME);
    expect(isShown('Home')).toBe(true);
    expect(isShown('Merchants')).toBe(false);
  });

  test('a hidden kept page reads its own location; one that does not read it is left alone', async () => {
    const guard = heldGuard();
    const { router } = renderConsole(guard);
    await homeThenMerchants(router);
    await act(() => router.navigate(USER_INFO));
    await flush();
    const merchants = seen.renders.Merchants;
    for (const to of ['/elsewhere/1', HOME, '/elsewhere/2', USER_INFO]) {
      await act(() => router.navigate(to));
      await flush();
      if (to !== HOME) expect(seen.location.Home).toBe(HOME);
    }
    expect(seen.renders.Merchants).toBe(merchants);
  });

  test('the router does not render the page on show again: not as a navigation starts, nor when it arrives at a page shown ahead', async () => {
    const guard = heldGuard();
    const { router } = renderConsole(guard);
    await homeThenMerchants(router);
    const renders = seen.renders.Merchants;

    guard.hold();
    await routerNavigates(router, USER_INFO);
    expect(router.state.navigation.state).toBe('loading');
    await guard.release();
    expect(isShown('User info')).toBe(true);

    guard.hold();
    fireEvent.click(tab(enUS['route.merchant']));
    expect(isShown('Merchants')).toBe(true);
    await nextFrame();
    await guard.release();
    expect(router.state.location.pathname).toBe(MERCHANTS);
    expect(seen.renders.Merchants).toBe(renders);
  });
});

describe("the shell's route", () => {
  test('its parts that navigate are not rendered again by navigations', async () => {
    let renders = 0;
    const Navigates = memo(function Navigates() {
      useNavigate();
      renders += 1;
      return null;
    });
    const Layout = memo(function Layout() {
      return (
        <ShellRouteContext>
          <Navigates />
          <KeepAliveOutlet />
        </ShellRouteContext>
      );
    });
    const settings = createActor(settingsMachine, { input: { stored: null } }).start();
    const router = createMemoryRouter(
      [
        {
          id: 'root',
          loader: () => null,
          shouldRevalidate: () => true,
          Component: Layout,
          children: [
            { path: HOME, Component: LocationPage },
            { path: USER_INFO, Component: PlainPage },
          ],
        },
      ],
      { initialEntries: [HOME] },
    );
    render(
      <Providers actors={appActors({ settings })}>
        <RouterProvider router={router} />
      </Providers>,
    );
    await flush();
    const before = renders;
    for (const to of [USER_INFO, HOME, USER_INFO]) {
      await act(() => router.navigate(to));
      await flush();
    }
    expect(isShown('User info')).toBe(true);
    expect(renders).toBe(before);
  });
});
