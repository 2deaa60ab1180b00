import { painted } from './painted';

/**
 * Shows the top of a link page under its HTML's skeleton (`skeletonSelector`) as soon as the entry's early
 * answer is there, and settles once the browser has painted it. On a phone's slow connection the page's
 * code (React, Mantine, the page) arrives a good second later and renders the same top in the same place
 * (the page's style sheet holds the two alike): its largest text is then painted early rather than with it.
 *
 * `read` takes what the top needs from the answer without the page's code (its schemas come with zod,
 * which the entry leaves out); where it finds anything unexpected, or the answer failed, nothing is shown:
 * the page's code, which checks the whole view, says what is wrong.
 */
export async function showEarlyTop<Top>(
  earlyView: Promise<Response>,
  skeletonSelector: string,
  read: (view: unknown) => Top | undefined,
  draw: (skeleton: HTMLElement, top: Top) => void,
): Promise<void> {
  const skeleton = document.querySelector<HTMLElement>(skeletonSelector);
  const answer = await earlyView.catch(() => undefined);
  if (!skeleton || !answer?.ok) return;
  // A copy: the page's code reads the answer itself.
  const top = read(
    await answer
      .clone()
      .json()
      .catch(() => undefined),
  );
  if (top === undefined) return;
  draw(skeleton, top);
  await painted();
}

/** An element of the early top, with the class its page's style sheet gives it. */
export function earlyElement(tag: 'h1' | 'div' | 'p', className: string, text?: string): HTMLElement {
  const element = document.createElement(tag);
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}
