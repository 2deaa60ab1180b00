import { afterEach, describe, expect, it } from 'vitest';
import { reviewerView, unverifiedView } from '@/features/review-link/test-fixtures';
import { reviewTexts } from '@/features/review-link/texts';
import { jsonResponse } from '@/test/utils';
import { earlyHeaderOf, showEarlyHeader } from './early-header';

/** review.html's #root before the page's code has run. */
function skeleton(): HTMLElement {
  document.body.innerHTML =
    '<div id="root"><div class="review-skeleton"><div class="review-skeleton-name">Vertragsgenerator</div></div></div>';
  return document.querySelector('.review-skeleton') as HTMLElement;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('earlyHeaderOf', () => {
  it('names the file and opens with the page’s own sentence, in the contract’s language', () => {
    expect(earlyHeaderOf(reviewerView)).toEqual({
      lang: 'de',
      heading: 'Rahmenvertrag PL-12345.docx',
      intro: reviewTexts.de.intro('Demo GmbH'),
    });
    expect(earlyHeaderOf({ ...reviewerView, language: 'en' })).toEqual({
      lang: 'en',
      heading: 'Rahmenvertrag PL-12345.docx',
      intro: reviewTexts.en.intro('Demo GmbH'),
    });
  });

  it('leaves the sentence out in a later round, whose badge stands beside it', () => {
    expect(earlyHeaderOf({ ...reviewerView, round: 2 })).toEqual({
      lang: 'de',
      heading: 'Rahmenvertrag PL-12345.docx',
    });
  });

  it.each([
    ['the code is still to be confirmed', unverifiedView],
    ['the answer is no view', { error: 'link_expired' }],
    ['the language is unknown', { ...reviewerView, language: 'fr' }],
    ['nothing names the file', { ...reviewerView, fileName: '' }],
    ['the answer is no object', 'open'],
  ])('shows nothing where %s', (_case, view) => {
    expect(earlyHeaderOf(view)).toBeUndefined();
  });
});

describe('showEarlyHeader', () => {
  it('shows the file’s name and the sentence under the page’s top and leaves the answer for the page', async () => {
    const top = skeleton();
    const answer = jsonResponse(200, reviewerView);
    await showEarlyHeader(Promise.resolve(answer));

    expect(top.lang).toBe('de');
    expect(top.querySelector('h1.review-skeleton-title')?.textContent).toBe('Rahmenvertrag PL-12345.docx');
    expect(top.querySelector('.review-skeleton-box > p.review-skeleton-intro')?.textContent).toBe(
      reviewTexts.de.intro('Demo GmbH'),
    );
    expect(await answer.json()).toEqual(reviewerView);
  });

  it.each([
    ['a refused link', () => Promise.resolve(jsonResponse(410, { error: 'link_expired' }))],
    ['a lost answer', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['an answer that is no JSON', () => Promise.resolve(new Response('<html>', { status: 200 }))],
    ['the code step', () => Promise.resolve(jsonResponse(200, unverifiedView))],
  ])('shows nothing more for %s', async (_case, earlyView) => {
    const top = skeleton();
    await showEarlyHeader(earlyView());
    expect(top.querySelector('h1')).toBeNull();
    expect(top.textContent).toBe('Vertragsgenerator');
  });
});
