// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * The video templates page (/digital-human/video-template) as assistive tech meets it: the cards
 * (cover, frame drawn, demo player, Edit and Delete), the filters, and the template dialog open,
 * a merchant's (library pickers) and the admin's (uploaded pictures); axe finds no serious or
 * critical violation. (Its behaviour: dh-templates-view.test.tsx, dh-templates-page-view.test.tsx.)
 */
import { screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { flush } from './view-harness';
import { viewPathHooks } from './ui-paths';
import { MINE, PLATFORM } from './dh-template-fixtures';
import { setup, text } from './dh-templates-world';

viewPathHooks();

const axeSerious = async () => {
  vi.useRealTimers();
  try {
    const axe = (await import('axe-core')).default;
    const result = await axe.run(document.body);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes[0]?.html}`);
  } finally {
    vi.useFakeTimers();
  }
};

test('a merchant’s cards and its template dialog: axe finds nothing serious', async () => {
  const w = await setup();
  await flush();
  expect(w.card(MINE.name)).toBeDefined();
  expect(await axeSerious()).toEqual([]);
  await w.user.click(
    within(w.card(MINE.name)!).getByRole('button', {
      name: text('dhTemplates.editOf', { name: MINE.name }),
    }),
  );
  within(w.dialog()!).getByRole('heading', {
    name: text('dhTemplates.editTitle', { name: MINE.name }),
  });
  expect(await axeSerious()).toEqual([]);
  w.dispose();
});

test('the admin’s page and its dialog: axe finds nothing serious', async () => {
  const w = await setup({ admin: true });
  await flush();
  await w.user.click(screen.getByRole('button', { name: text('dhTemplates.newPlatform') }));
  within(w.dialog()!).getByRole('heading', { name: text('dhTemplates.newTitle') });
  expect(w.card(PLATFORM.name)).toBeDefined();
  expect(await axeSerious()).toEqual([]);
  w.dispose();
});
