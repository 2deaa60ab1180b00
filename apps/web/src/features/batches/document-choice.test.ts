import { describe, expect, it } from 'vitest';
import {
  availableKinds,
  choiceOfKey,
  fittingParams,
  keyOf,
  paramFields,
  splitMatchIds,
} from './document-choice';

describe('the document of a batch', () => {
  it('offers each level the kinds of which it may make a key: legal all, leaders offers and e-signature contracts, consultants those', () => {
    expect(availableKinds(2)).toEqual([
      'extension',
      'agreement',
      'termination',
      'offer',
      'docx',
      'esignature',
    ]);
    expect(availableKinds(3)).toEqual(['offer', 'esignature']);
    expect(availableKinds(1)).toEqual(['esignature']);
    expect(availableKinds(null)).toEqual([]);
  });

  it('makes the catalogue key of each kind once every choice is made', () => {
    expect(keyOf('extension', { company: 'wm', language: 'en', partner: 'pp' })).toBe(
      'verlaengerung-en-wm-pp',
    );
    expect(keyOf('extension', { company: 'wm', partner: 'pp' })).toBeNull();
    expect(keyOf('agreement', { agreement: 'misc', company: 'we', partner: 'k' })).toBe('zusatz-we-k-misc');
    expect(
      keyOf('termination', { company: 'wm', partner: 'k', document: 'termination', deadline: 'los' }),
    ).toBe('kuendigung-wm-k-termination-los');
    expect(keyOf('termination', { company: 'wm', partner: 'k', document: 'termination' })).toBeNull();
    expect(
      keyOf('termination', { company: 'wm', partner: 'k', document: 'confirmation', deadline: 'los' }),
    ).toBe('kuendigung-wm-k-confirmation');
    expect(keyOf('offer', { company: 'we' })).toBe('angebot-we');
    expect(keyOf('docx', { language: 'de', company: 'we', contract: 'rv' })).toBe('docx-de-we-rv');
    // An e-signature contract: the project partner signs alone, a customer in one or two blocks.
    expect(keyOf('esignature', { language: 'de', company: 'wm', contract: 'ev', partner: 'pp' })).toBe(
      'de-wm-pp-ev',
    );
    expect(keyOf('esignature', { language: 'en', company: 'we', contract: 'rv', partner: 'k' })).toBeNull();
    expect(
      keyOf('esignature', {
        language: 'en',
        company: 'we',
        contract: 'rv',
        partner: 'k',
        customerSigners: '2',
      }),
    ).toBe('en-we-k-rv-2');
  });

  it('asks for an e-signature contract’s choices as the single form does, and offers each level its partners', () => {
    expect(paramFields('esignature', {}).map((field) => field.param)).toEqual([
      'language',
      'company',
      'contract',
      'partner',
    ]);
    expect(paramFields('esignature', { partner: 'k' }).map((field) => field.param)).toContain(
      'customerSigners',
    );
    const partners = (level: 1 | 2 | 3) =>
      paramFields('esignature', { company: 'wm' }, level)
        .find((field) => field.param === 'partner')
        ?.options.map((option) => option.value);
    // Consultants and leaders contract with the project partner only.
    expect(partners(2)).toEqual(['k', 'pp']);
    expect(partners(1)).toEqual(['pp']);
    expect(fittingParams('esignature', { company: 'wm', partner: 'k' }, 1).partner).toBeNull();
  });

  it('clears a choice the others no longer offer: WP has no customer side and no English', () => {
    expect(fittingParams('extension', { company: 'wp', language: 'en', partner: 'k' })).toEqual({
      company: 'wp',
      language: null,
      partner: null,
    });
    expect(fittingParams('extension', { company: 'we', language: 'en', partner: 'k' })).toEqual({
      company: 'we',
      language: 'en',
      partner: 'k',
    });
    // The extension is a kind of its own, not one of the Zusatzvereinbarungen.
    expect(fittingParams('agreement', { agreement: 'extension' }).agreement).toBeNull();
    expect(paramFields('offer', {}).map((field) => field.param)).toEqual(['company']);
  });

  it('reads back the choices of a key the user may make, and nothing of one they may not', () => {
    expect(choiceOfKey('verlaengerung-de-wp-pp', 2)).toEqual({
      kind: 'extension',
      params: { company: 'wp', language: 'de', partner: 'pp' },
    });
    expect(choiceOfKey('kuendigung-we-pp-termination-gerecht', 2)).toEqual({
      kind: 'termination',
      params: { company: 'we', partner: 'pp', document: 'termination', deadline: 'gerecht' },
    });
    expect(choiceOfKey('zusatz-wm-k-hours', 2)).toEqual({
      kind: 'agreement',
      params: { agreement: 'hours', company: 'wm', partner: 'k' },
    });
    expect(choiceOfKey('angebot-wm', 3)).toEqual({ kind: 'offer', params: { company: 'wm' } });
    expect(choiceOfKey('verlaengerung-de-wp-pp', 3)).toBeUndefined();
    expect(choiceOfKey('de-wm-pp-ev', 1)).toEqual({
      kind: 'esignature',
      params: { language: 'de', company: 'wm', partner: 'pp', contract: 'ev' },
    });
    expect(choiceOfKey('en-we-k-rv-2', 2)).toEqual({
      kind: 'esignature',
      params: { language: 'en', company: 'we', partner: 'k', contract: 'rv', customerSigners: '2' },
    });
    // A customer's e-signature contract is legal's; an unknown key is nothing.
    expect(choiceOfKey('en-we-k-rv-2', 1)).toBeUndefined();
    expect(choiceOfKey('verlaengerung-fr-wm-k', 2)).toBeUndefined();
  });

  it('splits pasted match IDs at lines, commas, semicolons and spaces', () => {
    expect(splitMatchIds(' PL-1\r\nPL-2,PL-3; PL-4  PL-5,,\n')).toEqual([
      'PL-1',
      'PL-2',
      'PL-3',
      'PL-4',
      'PL-5',
    ]);
  });
});
