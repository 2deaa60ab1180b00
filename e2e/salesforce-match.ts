/**
 * The Salesforce record the browser test's stub answers the match lookup with (e2e/salesforce-stub-server.ts),
 * shaped as a SOQL answer over e2e/salesforce-mapping.json's paths, and the id of its Match__c record.
 */
export const SALESFORCE_MATCH_ID = 'PL-31337';
export const SALESFORCE_RECORD_ID = 'a0B5g00000E2eWbEAF';

export const SALESFORCE_RECORD = {
  attributes: { type: 'Match__c', url: `/services/data/v62.0/sobjects/Match__c/${SALESFORCE_RECORD_ID}` },
  Name: SALESFORCE_MATCH_ID,
  Berater_Job__r: { attributes: { type: 'User' }, Name: 'Jonas Jäger' },
  Berater_Kandidat__r: { attributes: { type: 'User' }, Name: 'Elif Engel' },
  Kandidat__r: {
    attributes: { type: 'Contact' },
    FirstName: 'Jana',
    LastName: 'Kowalski',
    Name: 'Jana Kowalski',
  },
  Projektpartner_Gesellschaft__r: {
    attributes: { type: 'Account' },
    Name: 'Kowalski Data Consulting',
    BillingAddress: { street: 'Lindenallee 9', postalCode: '50968', city: 'Köln', country: null },
  },
  Kunde__r: {
    attributes: { type: 'Account' },
    Name: 'Weserstahl Bremen AG',
    BillingAddress: { street: 'Hafenkante 3', postalCode: '28217', city: 'Bremen', country: 'Deutschland' },
  },
  Ansprechpartner_Kunde__r: { attributes: { type: 'Contact' }, Name: 'Henrik Brandt' },
  Startdatum__c: '2027-02-01',
  Enddatum__c: '2027-07-31',
  Kuendigungsfrist_Kunde__c: '4 Wochen',
  Kuendigungsfrist__c: null,
  Zahlungsziel_PP__c: 30,
  Zahlungsziel_Kunde__c: 14,
  Verguetungssatz__c: 95,
  EK_Remote__c: 95,
  VK_Remote__c: 124,
  EK_Onsite__c: 100,
  VK_Onsite__c: 132,
  Stunden_pro_Woche__c: 40,
  Einsatzort__c: 'Bremen',
  Position__c: 'Data Engineer',
  Aufgabenbeschreibung__c: 'Aufbau einer Datenplattform für die Produktionsplanung.',
  Zusaetzliche_Vereinbarungen__c: null,
  Anstellungsart__c: 'Freiberufler',
  Vertragspartner_PP__c: 'WM Consulting GmbH',
  Vertragspartner_Kunde__c: 'WM Consulting GmbH',
};
