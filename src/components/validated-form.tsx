import { chakra, type HTMLChakraProps } from '@chakra-ui/react';
import type { FormEvent } from 'react';
import { flushSync } from 'react-dom';

const FOCUSABLE = 'input:not([type="hidden"]), select, textarea, button, [tabindex]';

/**
 * The first part of a form its last check left invalid: Chakra's fields mark their root and
 * control `aria-invalid` / `data-invalid`, and a form marks any other part it refuses (a list of
 * picked items, a group of fields) with `data-invalid`. Within a marked part, its first control.
 */
export function firstInvalid(root: HTMLElement): HTMLElement | null {
  const marked = root.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]');
  if (!marked || marked.matches(FOCUSABLE)) return marked;
  return marked.querySelector<HTMLElement>(FOCUSABLE) ?? marked;
}

/** Takes the person to a form's first invalid part (out of view above the submit button). */
export function showFirstInvalid(root: HTMLElement): boolean {
  const target = firstInvalid(root);
  if (!target) return false;
  // jsdom has no scrollIntoView.
  target.scrollIntoView?.({ block: 'center' });
  target.focus({ preventScroll: true });
  return true;
}

/**
 * Every form of the console: no browser validation (the contract's rules speak), Enter submits,
 * and a submit its check refuses takes the person to the first invalid field, focused and
 * scrolled into view, rather than seeming to do nothing. `onSubmit` updates the form's state
 * (a machine's SUBMIT, a view's checked errors); its render is flushed before the fields are read.
 */
export function ValidatedForm(
  props: Omit<HTMLChakraProps<'form'>, 'onSubmit'> & { onSubmit: () => void | Promise<void> },
) {
  const { onSubmit, ...rest } = props;
  return (
    <chakra.form
      noValidate
      {...rest}
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        const form = e.currentTarget;
        flushSync(() => void onSubmit());
        showFirstInvalid(form);
      }}
    />
  );
}
