import { earlyElement, showEarlyTop } from '../link-page/early-top';

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
 * entry's early answer is there (signing-styles.css holds it alike to the page's).
 */
export function showEarlyHeading(earlyView: Promise<Response>): Promise<void> {
  return showEarlyTop(earlyView, '.signing-skeleton', signingHeadingOf, (skeleton, heading) => {
    skeleton.append(earlyElement('h1', 'signing-skeleton-title', heading));
  });
}
