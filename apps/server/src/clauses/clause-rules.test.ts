import { CATALOGUE, type CatalogueEntry, type ResolvedMatch } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { compileRule } from './clause-rules.js';
import { type DealFacts, dealFacts } from './deal-facts.js';

const contractKeys = [...CATALOGUE.values()].filter((e) => e.params.family === 'contract');
/** A framework contract of WM with a customer, in each language. */
const frameworkOf = (language: 'de' | 'en') =>
  contractKeys.find(
    (e) =>
      e.params.family === 'contract' &&
      e.params.company === 'wm' &&
      e.params.partner === 'k' &&
      e.params.contract === 'rv' &&
      e.params.language === language,
  ) as CatalogueEntry;
const partnerContract = contractKeys.find(
  (e) => e.params.family === 'contract' && e.params.partner === 'pp' && e.params.contract === 'ev',
) as CatalogueEntry;

const deal = (values: Partial<ResolvedMatch> = {}): ResolvedMatch => ({
  matchId: 'PL-1',
  kunde: 'Alpen Industrie AG',
  adresseKunde: 'Bahnhofstrasse 1\n8001 Zürich\nSchweiz',
  einsatzort: 'Zürich, 40 % remote',
  Anstellungsart: 'Freiberufler',
  vk: '125,50',
  ek: 95,
  stundenProWoche: 40,
  ...values,
});

describe('the facts a rule reads', () => {
  it.each([
    ['de', 'de'],
    ['en', 'en'],
  ] as const)('of a %s framework contract with a Swiss customer', (language, expected) => {
    expect(dealFacts(frameworkOf(language), deal())).toEqual({
      firma: 'wm',
      partner: 'kunde',
      dokument: 'vertrag',
      vertragsart: 'rahmenvertrag',
      sprache: expected,
      anstellungsart: 'Freiberufler',
      land: 'CH',
      remoteAnteil: 40,
      satz: 125.5,
      stunden: 40,
    });
  });

  it('of a project partner: the purchase rate, and a deal without values', () => {
    const facts = dealFacts(
      partnerContract,
      deal({
        adresseKunde: undefined,
        einsatzort: undefined,
        ek: undefined,
        vk: undefined,
        stundenProWoche: undefined,
        Anstellungsart: ' ',
      }),
    );
    expect(facts).toMatchObject({
      partner: 'projektpartner',
      vertragsart: 'einzelauftrag',
      land: 'DE',
      remoteAnteil: 0,
      satz: null,
      stunden: null,
      anstellungsart: null,
    });
    expect(dealFacts(partnerContract, deal()).satz).toBe(95);
  });

  it.each([
    ['Ringstraße 3\n1010 Wien\nÖsterreich', 'AT'],
    ['Main Street 5, London, United Kingdom', 'GB'],
    ['CH-3011 Bern', 'CH'],
    ['A-1010 Wien', 'AT'],
    ['Am Sandtorkai 1\n20457 Hamburg', 'DE'],
    ['Rue de Rivoli 1, 75001 Paris, Frankreich', 'FR'],
    ['', 'DE'],
  ])('the country of %j is %s', (address, country) => {
    expect(dealFacts(frameworkOf('de'), deal({ adresseKunde: address })).land).toBe(country);
  });

  it.each([
    ['Remote', 100],
    ['100% remote', 100],
    ['Hamburg (50 % remote)', 50],
    ['remote 20,5 %', 20.5],
    ['Hamburg', 0],
    ['vor Ort beim Kunden', 0],
  ])('the remote share of %j is %d', (place, share) => {
    expect(dealFacts(frameworkOf('de'), deal({ einsatzort: place })).remoteAnteil).toBe(share);
  });
});

describe('rules', () => {
  const swiss = dealFacts(frameworkOf('de'), deal());
  const deals: Record<string, DealFacts> = {
    'the Swiss deal': swiss,
    'the Swiss deal in English': dealFacts(frameworkOf('en'), deal()),
    'a German deal at 90 €': { ...swiss, land: 'DE', satz: 90, remoteAnteil: 0 },
    'a deal without a rate': { ...swiss, satz: null },
  };
  const swissEnglish = 'the Swiss deal in English';
  const german = 'a German deal at 90 €';
  const withoutRate = 'a deal without a rate';

  it.each([
    ['', 'the Swiss deal', true],
    ['land = CH', 'the Swiss deal', true],
    ['land = ch', 'the Swiss deal', true],
    ['land = "CH"', german, false],
    ['land != CH', german, true],
    ['land in [CH, LI]', 'the Swiss deal', true],
    ['land in (AT, DE)', 'the Swiss deal', false],
    ['land = CH und partner = kunde', 'the Swiss deal', true],
    ['land = CH und partner = projektpartner', 'the Swiss deal', false],
    ['land = DE oder satz >= 120', 'the Swiss deal', true],
    ['land = DE oder satz >= 120', german, true],
    ['land = AT oder satz > 125.5', 'the Swiss deal', false],
    ['nicht land = CH', 'the Swiss deal', false],
    ['nicht (land = CH oder land = AT)', german, true],
    ['firma = wm und nicht vertragsart = einzelauftrag', 'the Swiss deal', true],
    ['remoteAnteil >= 40 und remoteAnteil < 50', 'the Swiss deal', true],
    ['satz >= 100', withoutRate, false],
    ['satz < 100', withoutRate, false],
    ['satz != 100', withoutRate, true],
    ['anstellungsart = "freiberufler"', 'the Swiss deal', true],
    ['sprache = en', 'the Swiss deal', false],
    ['sprache = en', swissEnglish, true],
    ['dokument in [vertrag, zusatzvereinbarung] und stunden >= 40', swissEnglish, true],
    // `und` binds closer than `oder`.
    ['land = AT und satz > 1 oder partner = kunde', 'the Swiss deal', true],
    ['land = AT und (satz > 1 oder partner = kunde)', 'the Swiss deal', false],
  ])('%j on %s → %s', (rule, name, expected) => {
    const compiled = compileRule(rule);
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.holds(deals[name] as DealFacts)).toBe(expected);
  });

  it.each([
    ['land = CH und', /Die Regel braucht Vergleiche wie „feld = wert“/],
    ['land == ', /nicht lesbar/],
    ['lnad = CH', /Unbekanntes Feld „lnad“. Regeln kennen firma, partner/],
    ['Land = CH', /Unbekanntes Feld „Land“ – meinst du „land“\?/],
    ['firma = xy', /„firma“ kennt nur wm, we, wp – nicht „xy“/],
    ['satz >= hoch', /„satz“ wird mit einer Zahl verglichen/],
    ['land > CH', /„land“ ist kein Zahlenfeld/],
    ['land in CH', /Nach „in“ steht eine Liste/],
    ['land = CH && satz > 1', /„&&“ gibt es in Regeln nicht/],
    ['land', /Bei „land“ fehlt der Vergleich/],
    ['CH = land', /Unbekanntes Feld „CH“/],
    ['satz + 1 > 2', /Links vom Vergleich steht ein Feld/],
    ['land = f(1)', /Rechts vom Vergleich mit „land“ steht ein Wert/],
  ])('%j is refused: %s', (rule, message) => {
    const compiled = compileRule(rule);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.message).toMatch(message);
  });
});
