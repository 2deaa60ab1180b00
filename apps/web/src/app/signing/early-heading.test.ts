import { afterEach, describe, expect, it } from 'vitest';
import { signingView, unverifiedView } from '@/features/signature/test-fixtures';
import { jsonResponse } from '@/test/utils';
import { showEarlyHeading, signingHeadingOf } from './early-heading';

/** signing.html's #root before the page's code has run. */
function skeleton(): HTMLElement {
  document.body.innerHTML =
    '<div id="root"><div class="signing-skeleton"><div class="signing-skeleton-name">Vertragsgenerator</div></div></div>';
  return document.querySelector('.signing-skeleton') as HTMLElement;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('signingHeadingOf', () => {
  it('names the document as the signing form and the code step do: its subject, or else its file name', () => {
    expect(signingHeadingOf(signingView)).toBe('Rahmenvertrag zur Unterschrift');
    expect(signingHeadingOf(unverifiedView)).toBe('Rahmenvertrag zur Unterschrift');
    expect(signingHeadingOf({ ...signingView, subject: '' })).toBe('Rahmenvertrag PL-12345.docx');
  });

  it.each([
    ['the link is signed', { ...signingView, state: 'signed' }],
    ['the link is declined', { ...signingView, state: 'declined' }],
    ['the answer is no view', { error: 'link_expired' }],
    ['nothing names the document', { ...signingView, subject: '', fileName: 7 }],
    ['the answer is no object', 'open'],
  ])('shows no heading where %s', (_case, view) => {
    expect(signingHeadingOf(view)).toBeUndefined();
  });
});

describe('showEarlyHeading', () => {
  it('shows the view’s heading under the page’s top and leaves the answer for the page to read', async () => {
    const top = skeleton();
    const answer = jsonResponse(200, signingView);
    await showEarlyHeading(Promise.resolve(answer));

    const heading = top.querySelector('h1');
    expect(heading?.textContent).toBe('Rahmenvertrag zur Unterschrift');
    expect(heading?.className).toBe('signing-skeleton-title');
    expect(await answer.json()).toEqual(signingView);
  });

  it.each([
    ['a refused link', () => Promise.resolve(jsonResponse(410, { error: 'link_expired' }))],
    ['a lost answer', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['an answer that is no JSON', () => Promise.resolve(new Response('<html>', { status: 200 }))],
    ['a used link', () => Promise.resolve(jsonResponse(200, { ...signingView, state: 'signed' }))],
  ])('shows nothing more for %s', async (_case, earlyView) => {
    const top = skeleton();
    await showEarlyHeading(earlyView());
    expect(top.querySelector('h1')).toBeNull();
    expect(top.textContent).toBe('Vertragsgenerator');
  });
});
