/**
 * The field dictionary: every placeholder a template may use, with its meaning. The
 * renderer fills exactly these names and `templates:lint` refuses any other, so a typo in Word is
 * caught before a contract goes out. docs/templates.md explains them to legal staff.
 */

export type TemplateFieldKind = 'text' | 'condition' | 'loop';

export interface TemplateField {
  kind: TemplateFieldKind;
  description: string;
  /** For loops: the fields of each entry. */
  item?: Record<string, string>;
}

export const TEMPLATE_FIELDS = {
  // The document
  dokumentDatum: { kind: 'text', description: 'Datum der Erstellung, z. B. 21.11.2026' },
  matchId: { kind: 'text', description: 'Match-ID aus dem CRM, z. B. PL-10001' },

  // Our company (letterhead, contract party, footer), from config/companies.json
  firmaName: { kind: 'text', description: 'Name unserer Gesellschaft, z. B. WM Consulting GmbH' },
  firmaStrasse: { kind: 'text', description: 'Straße und Hausnummer unserer Gesellschaft' },
  firmaPlzOrt: { kind: 'text', description: 'PLZ und Ort unserer Gesellschaft' },
  firmaOrt: { kind: 'text', description: 'Ort unserer Gesellschaft (für „Ort, Datum“)' },
  firmaRegistergericht: { kind: 'text', description: 'Registergericht, z. B. Amtsgericht Hamburg' },
  firmaRegisternummer: { kind: 'text', description: 'Handelsregisternummer, z. B. HRB 123456' },
  firmaUstId: { kind: 'text', description: 'Umsatzsteuer-Identifikationsnummer' },
  firmaGeschaeftsfuehrer: { kind: 'text', description: 'Geschäftsführer, durch Komma getrennt' },
  firmaEmail: { kind: 'text', description: 'E-Mail-Adresse unserer Gesellschaft' },
  firmaTelefon: { kind: 'text', description: 'Telefonnummer unserer Gesellschaft' },
  firmaWebsite: { kind: 'text', description: 'Website unserer Gesellschaft' },

  // The other party of this document: the customer (k) or the project partner (pp)
  partnerName: {
    kind: 'text',
    description: 'Vertragspartner: Kunde bzw. Gesellschaft oder Name des Projektpartners',
  },
  partnerAdresse: { kind: 'text', description: 'Anschrift des Vertragspartners' },
  partnerAnsprechpartner: {
    kind: 'text',
    description: 'Ansprechpartner des Kunden bzw. Name des Projektpartners',
  },

  // Values of the match, formatted as in the match table; a missing value becomes a blank line to fill in
  beraterJob: { kind: 'text', description: 'Berater Job (CRM)' },
  beraterKandidat: { kind: 'text', description: 'Berater Kandidat (CRM)' },
  projektpartnerName: { kind: 'text', description: 'Vor- und Nachname des Projektpartners' },
  projektpartnerGesellschaft: { kind: 'text', description: 'Gesellschaft des Projektpartners' },
  projektpartnerAdresse: { kind: 'text', description: 'Anschrift des Projektpartners' },
  kunde: { kind: 'text', description: 'Name des Kunden' },
  ansprechpartnerKunde: { kind: 'text', description: 'Ansprechpartner beim Kunden' },
  adresseKunde: { kind: 'text', description: 'Anschrift des Kunden' },
  startdatum: { kind: 'text', description: 'Projektbeginn, TT.MM.JJJJ' },
  enddatum: { kind: 'text', description: 'Projektende, TT.MM.JJJJ' },
  kuendigungsfrist: { kind: 'text', description: 'Kündigungsfrist gegenüber dem Kunden' },
  zahlungsziel: {
    kind: 'text',
    description: 'Zahlungsziel gegenüber dem Vertragspartner (Kunde bzw. Projektpartner)',
  },
  zahlungszielKunde: { kind: 'text', description: 'Zahlungsziel des Kunden, deutsche Einheiten' },
  zahlungszielPP: {
    kind: 'text',
    description: 'Zahlungsziel gegenüber dem Projektpartner, deutsche Einheiten',
  },
  verguetungssatz: { kind: 'text', description: 'Vergütungssatz, z. B. 1.234,50 €' },
  stundensatzRemote: {
    kind: 'text',
    description: 'Stundensatz remote für diesen Vertragspartner: VK (Kunde) bzw. EK (Projektpartner)',
  },
  stundensatzOnsite: {
    kind: 'text',
    description:
      'Stundensatz vor Ort für diesen Vertragspartner: VK Onsite (Kunde) bzw. EK Onsite (Projektpartner)',
  },
  stundenProWoche: { kind: 'text', description: 'Auslastung in Stunden pro Woche, nur die Zahl' },
  einsatzort: { kind: 'text', description: 'Einsatzort' },
  position: { kind: 'text', description: 'Position / Rolle im Projekt' },
  aufgabenbeschreibung: { kind: 'text', description: 'Aufgabenbeschreibung (mehrzeilig)' },
  zusatzvereinbarungen: { kind: 'text', description: 'Zusätzliche Vereinbarungen aus dem CRM (mehrzeilig)' },
  anstellungsart: { kind: 'text', description: 'Anstellungsart, z. B. Freiberufler' },

  // The person who signs for our company (config/signatories.json)
  unterzeichnerName: {
    kind: 'text',
    description: 'Name der Person, die für unsere Gesellschaft unterschreibt',
  },
  unterzeichnerFunktion: { kind: 'text', description: 'Funktion dieser Person, z. B. Geschäftsführer' },

  // Termination
  kuendigungPosition: {
    kind: 'text',
    description: 'Position, die gekündigt bzw. deren Kündigung bestätigt wird',
  },

  // Offer
  angebotStunden: { kind: 'text', description: 'Angebotenes Volumen in Stunden' },
  angebotTage: { kind: 'text', description: 'Angebotenes Volumen in Personentagen' },
  angebotStundensatz: { kind: 'text', description: 'Stundensatz des Angebots (VK remote)' },
  angebotSumme: { kind: 'text', description: 'Gesamtvolumen: Stunden × Stundensatz, netto' },

  // Additional agreement
  zusatzText: {
    kind: 'text',
    description:
      'Inhalt der Zusatzvereinbarung: neue Aufgabenbeschreibung, neue Stunden pro Woche oder freier Text',
  },

  // Extension (Verlängerung): what its form or the batch's row gives
  verlaengerungBis: { kind: 'text', description: 'Neues Vertragsende der Verlängerung, TT.MM.JJJJ' },
  neuerStundensatzRemote: {
    kind: 'text',
    description: 'Neuer Stundensatz remote ab der Verlängerung (VK beim Kunden, EK beim Projektpartner)',
  },
  neuerStundensatzOnsite: { kind: 'text', description: 'Neuer Stundensatz vor Ort ab der Verlängerung' },
  neueStundenProWoche: {
    kind: 'text',
    description: 'Neue Stunden pro Woche ab der Verlängerung, nur die Zahl',
  },

  // Conditions: {#name}…{/name} shows the part when true, {^name}…{/name} when false
  mitKunde: { kind: 'condition', description: 'Vertrag mit dem Kunden' },
  mitProjektpartner: { kind: 'condition', description: 'Vertrag mit dem Projektpartner' },
  rahmenvertrag: { kind: 'condition', description: 'Rahmenvertrag (rv)' },
  einzelauftrag: { kind: 'condition', description: 'Einzelauftrag (ev)' },
  zweiKundenUnterschriften: { kind: 'condition', description: 'Der Kunde unterschreibt mit zwei Personen' },
  kuendigung: { kind: 'condition', description: 'Kündigungsschreiben (nicht Bestätigung)' },
  fristgerecht: { kind: 'condition', description: 'Fristgerechte Kündigung' },
  fristlos: { kind: 'condition', description: 'Fristlose Kündigung' },
  bestaetigung: { kind: 'condition', description: 'Kündigungsbestätigung' },
  zusatzAufgaben: { kind: 'condition', description: 'Zusatzvereinbarung ändert die Aufgabenbeschreibung' },
  zusatzStunden: { kind: 'condition', description: 'Zusatzvereinbarung ändert die Stunden pro Woche' },
  zusatzSonstiges: { kind: 'condition', description: 'Zusatzvereinbarung mit freiem Text' },
  hatZusatzvereinbarungen: { kind: 'condition', description: 'Das Match hat zusätzliche Vereinbarungen' },
  hatOnsiteSatz: { kind: 'condition', description: 'Es gibt einen Stundensatz vor Ort' },
  verlaengerung: { kind: 'condition', description: 'Verlängerung eines Vertrags' },
  mitNeuemSatzRemote: { kind: 'condition', description: 'Die Verlängerung ändert den Stundensatz remote' },
  mitNeuemSatzOnsite: { kind: 'condition', description: 'Die Verlängerung ändert den Stundensatz vor Ort' },
  mitNeuenStunden: { kind: 'condition', description: 'Die Verlängerung ändert die Stunden pro Woche' },

  // Loops: {#name}…{/name} repeats the part for every entry
  unterschriften: {
    kind: 'loop',
    description:
      'Unterschriftsblöcke in Reihenfolge: unsere Gesellschaft, dann Vertragspartner (ein oder zwei)',
    item: {
      seite: 'Wer unterschreibt, z. B. „Für die WM Consulting GmbH“ oder „Für den Auftraggeber“',
      firma: 'Firma der unterschreibenden Seite',
      name: 'Name der Person, leer wenn er erst beim Unterschreiben eingetragen wird',
      funktion: 'Funktion der Person',
      ankerSignatur: 'Unsichtbarer Anker für die E-Signatur (Unterschrift), weiße Schrift',
      ankerDatum: 'Unsichtbarer Anker für die E-Signatur (Datum), weiße Schrift',
      ankerName: 'Unsichtbarer Anker für die E-Signatur (Name), weiße Schrift',
    },
  },
} as const satisfies Record<string, TemplateField>;

export type TemplateFieldName = keyof typeof TEMPLATE_FIELDS;

/** What a missing value renders as: a visible line to fill in, never `undefined` or a gap. */
export const BLANK_LINE = '____________________';
