import { reviewIntro } from '@/features/review-link/intro-texts';
import { earlyElement, showEarlyTop } from '../link-page/early-top';

/** What of the reviewer's view the page's top needs, read without the page's code (its schemas come with zod). */
interface ViewTop {
  fileName?: unknown;
  company?: unknown;
  language?: unknown;
  round?: unknown;
  verification?: { required?: unknown; verified?: unknown };
}

/** The top of the review page as its code will show it; see earlyHeaderOf. */
export interface EarlyHeader {
  lang: 'de' | 'en';
  heading: string;
  /** The opening sentence; left out where the page puts a round's badge beside it, which moves its lines. */
  intro?: string;
}

/**
 * The top of an open review link's page (features/review-link/review-page.tsx ReviewHeader: the file's name
 * as its heading, then the opening sentence in a bordered box), or none where the page shows something
 * else: the code step, or anything unexpected, which the page's code, checking the whole view, reports.
 */
export function earlyHeaderOf(view: unknown): EarlyHeader | undefined {
  if (typeof view !== 'object' || view === null) return undefined;
  const { fileName, company, language, round, verification } = view as ViewTop;
  if (typeof fileName !== 'string' || !fileName || typeof company !== 'string') return undefined;
  if (language !== 'de' && language !== 'en') return undefined;
  if (typeof verification !== 'object' || verification === null) return undefined;
  if (verification.required !== false && verification.verified !== true) return undefined;
  return { lang: language, heading: fileName, ...(round === 1 && { intro: reviewIntro[language](company) }) };
}

/**
 * Shows the top of the reviewer's page under review.html's (.review-skeleton) as soon as the entry's early
 * answer is there (review-styles.css holds it alike to the page's): the opening sentence, the page's largest
 * text, is then painted early rather than with the page's code.
 */
export function showEarlyHeader(earlyView: Promise<Response>): Promise<void> {
  return showEarlyTop(earlyView, '.review-skeleton', earlyHeaderOf, (skeleton, header) => {
    skeleton.lang = header.lang;
    skeleton.append(earlyElement('h1', 'review-skeleton-title', header.heading));
    if (header.intro) {
      const box = earlyElement('div', 'review-skeleton-box');
      box.append(earlyElement('p', 'review-skeleton-intro', header.intro));
      skeleton.append(box);
    }
  });
}
