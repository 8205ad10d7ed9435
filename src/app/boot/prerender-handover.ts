import { PRERENDER_ID } from '../../prerender/compose';

/** What the visitor did in the pre-rendered copy of the login page before the console ran. */
export interface PrerenderState {
  /** Input values by name. */
  values: Record<string, string>;
  /** The checkbox (remember account), when there is one. */
  checked: boolean | null;
  /** A language the visitor chose in the copy's language switch (null: left as it was). */
  locale: string | null;
  /** A submit was held until the console took over. */
  submitted: boolean;
  /** The last button (not submit) clicked in the copy's <main>, by its index there, or null. */
  clicked: number | null;
}

function copyElement(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(PRERENDER_ID);
}

function changedChoice(select: HTMLSelectElement | null): string | null {
  const initial = select && [...select.options].find((o) => o.defaultSelected)?.value;
  return select && select.value !== initial ? select.value : null;
}

/**
 * The console's page has committed: remove the copy pre-rendered at build time (login.html, see
 * src/prerender/compose.ts) and return what the visitor did in it (null when there was none).
 * With `page` (the console's own copy of the same page), the focus and caret move to the same
 * field there. Call from a layout effect, so the swap happens before the browser paints; without
 * `page` (another page came first) the copy just goes.
 */
export function takeOverPrerender(page: HTMLElement | null): PrerenderState | null {
  const copy = copyElement();
  if (!copy) return null;
  const values: Record<string, string> = {};
  for (const input of copy.querySelectorAll<HTMLInputElement>('input[name]')) {
    values[input.name] = input.value;
  }
  const box = copy.querySelector<HTMLInputElement>('input[type="checkbox"]');
  const state: PrerenderState = {
    values,
    checked: box ? box.checked : null,
    locale: changedChoice(copy.querySelector('select')),
    submitted: copy.dataset.submitted === '1',
    clicked: copy.dataset.clicked ? Number(copy.dataset.clicked) : null,
  };
  const focused = copy.contains(document.activeElement) ? document.activeElement : null;
  copy.remove();
  if (page && focused instanceof HTMLInputElement && focused.name) moveFocus(page, focused);
  return state;
}

function moveFocus(page: HTMLElement, focused: HTMLInputElement): void {
  const own = page.querySelector<HTMLInputElement>(`input[name="${focused.name}"]`);
  if (!own) return;
  own.focus();
  // The value arrives with the re-render that follows: the caret goes where it was after it.
  const { selectionStart, selectionEnd } = focused;
  if (selectionStart !== null && own.type === focused.type) {
    queueMicrotask(() => own.setSelectionRange(selectionStart, selectionEnd));
  }
}
