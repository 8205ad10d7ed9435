// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * What assistive tech is told by the shared pieces every page may show: the loading spinner is a
 * named status (a name on a bare span is refused: axe's aria-prohibited-attr), and the notices'
 * region is named in the person's language (the toast library's default is English).
 */
import { screen } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import enUS from '../../src/i18n/en-US';
import { LoadingSpinner } from '../../src/components/loading-spinner';
import { notify, removeAllNotices } from '../../src/components/toaster';
import { viewPathHooks } from './ui-paths';
import { appActors, flush, renderAt } from './view-harness';

viewPathHooks();

describe('shared pieces', () => {
  test('the loading spinner is a named status that axe accepts', async () => {
    const actors = appActors({});
    renderAt(actors, <LoadingSpinner label="Loading the tree" />);
    await flush();
    screen.getByRole('status', { name: 'Loading the tree' });
    vi.useRealTimers();
    try {
      const axe = (await import('axe-core')).default;
      const result = await axe.run(document.body, { runOnly: ['aria-prohibited-attr'] });
      expect(result.violations.map((v) => v.id)).toEqual([]);
    } finally {
      vi.useFakeTimers();
    }
    actors.dispose();
  });

  test('the notices region is named in the person’s language', async () => {
    const actors = appActors({});
    renderAt(actors, <p>page</p>);
    notify('info', 'Saved');
    const name = enUS['notices.region'].replace('{hotkey}', 'Alt+T');
    await vi.waitFor(() => screen.getByRole('region', { name }), { timeout: 5000 });
    // Not the library's own English label.
    expect(screen.queryByRole('region', { name: 'Notifications, top (alt+T)' })).toBeNull();
    removeAllNotices();
    actors.dispose();
  });
});
