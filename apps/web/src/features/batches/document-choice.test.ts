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
  it('offers each level the kinds of which it may make a key: legal all, leaders offers, consultants none', () => {
    expect(availableKinds(2)).toEqual(['extension', 'agreement', 'termination', 'offer', 'docx']);
    expect(availableKinds(3)).toEqual(['offer']);
    expect(availableKinds(1)).toEqual([]);
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
    // E-signature contracts are no batch yet; an unknown key is nothing.
    expect(choiceOfKey('de-wm-pp-ev', 2)).toBeUndefined();
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
