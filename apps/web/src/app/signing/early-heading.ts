import { painted } from '../link-page/painted';

/**
 * What of the signer's view the page's top needs, read without the page's code (its schemas come with zod,
 * which this entry leaves out): anything unexpected shows nothing here, and the page's code, which checks
 * the whole view, says what is wrong.
 */
interface ViewTop {
  state?: unknown;
  subject?: unknown;
  fileName?: unknown;
}

/**
 * The heading an open link's page opens with, the code step's as the signing form's
 * (features/signature/signing-page.tsx, signing-code-step.tsx: the subject, or else the file's name), or
 * none where the page shows something else: a used link.
 */
export function signingHeadingOf(view: unknown): string | undefined {
  if (typeof view !== 'object' || view === null) return undefined;
  const { state, subject, fileName } = view as ViewTop;
  if (state !== 'open') return undefined;
  const heading = (typeof subject === 'string' && subject) || (typeof fileName === 'string' && fileName);
  return heading || undefined;
}

/**
 * Shows the heading of the signer's view under signing.html's top (.signing-skeleton) as soon as the
 * entry's early answer is there, and settles once the browser has painted it. On a phone's slow
 * connection the page's code (React, Mantine, the page) arrives a good second later; the page then
 * renders the same heading in the same place (signing-styles.css holds the two alike). A failed or
 * unexpected answer shows nothing: the page's code reports it.
 */
export async function showEarlyHeading(earlyView: Promise<Response>): Promise<void> {
  const skeleton = document.querySelector('.signing-skeleton');
  const answer = await earlyView.catch(() => undefined);
  if (!skeleton || !answer?.ok) return;
  // A copy: the page's code reads the answer itself.
  const heading = signingHeadingOf(
    await answer
      .clone()
      .json()
      .catch(() => undefined),
  );
  if (heading === undefined) return;
  const title = document.createElement('h1');
  title.className = 'signing-skeleton-title';
  title.textContent = heading;
  skeleton.append(title);
  await painted();
}
