/**
 * The benchmark's clause library and the template placing it: ten clauses as legal would keep them (2–4
 * paragraphs, lists, bold, the template's placeholders), several with variants chosen by rules on the deal,
 * and templates/rahmenvertrag-de.docx with a tag paragraph for each at the end of a section.
 */

const v = (name, rule, de, en) => ({ name, rule, de, en });

/** `{ key, name, option, variants }`, in the order the template places them. */
export const CLAUSES = [
  {
    key: 'aenderungsverfahren',
    name: 'Änderungen des Leistungsumfangs',
    option: 'always',
    variants: [
      v(
        'Standard',
        null,
        `Wünscht der Auftraggeber Änderungen oder Erweiterungen der in einem Einzelauftrag vereinbarten Leistungen, teilt er dies dem Auftragnehmer in Textform mit. Der Auftragnehmer prüft innerhalb von zehn Arbeitstagen, ob und zu welchen Bedingungen die Änderung möglich ist, und teilt das Ergebnis in Textform mit.

Das Ergebnis der Prüfung enthält mindestens:
1. die Auswirkungen auf den Leistungsumfang und den Zeitplan,
2. den voraussichtlichen Mehr- oder Minderaufwand in Stunden,
3. die Auswirkungen auf bereits erbrachte oder begonnene Leistungen.

Änderungen werden erst verbindlich, wenn **beide Parteien** sie in Textform bestätigt haben. Bis dahin erbringt {firmaName} die Leistungen auf Grundlage der bisherigen Vereinbarung; der Aufwand der Prüfung wird nach Aufwand vergütet, wenn er acht Stunden übersteigt.`,
        `If the Client wishes to change or extend the services agreed in an individual order, it shall notify the Contractor in text form. The Contractor shall examine within ten working days whether and on what terms the change is possible.

The result of the examination states at least:
1. the effects on scope and schedule,
2. the expected additional or reduced effort in hours,
3. the effects on services already rendered or begun.

Changes become binding only once **both parties** have confirmed them in text form. Until then {firmaName} renders the services as previously agreed.`,
      ),
    ],
  },
  {
    key: 'remote-arbeit',
    name: 'Remote-Arbeit',
    option: 'always',
    variants: [
      v(
        'Überwiegend remote',
        'remoteAnteil >= 50',
        `Die Leistungen werden überwiegend remote erbracht. {partnerName} stellt die für den Fernzugriff erforderlichen Zugänge rechtzeitig vor dem {startdatum} bereit; Verzögerungen bei der Bereitstellung verschieben vereinbarte Termine entsprechend.

Für die remote erbrachten Leistungen gilt:
- Der Auftragnehmer nutzt ausschließlich Endgeräte, die dem aktuellen Stand der Technik entsprechen und durch Festplattenverschlüsselung geschützt sind.
- Vertrauliche Unterlagen werden nicht in öffentlich zugänglichen Räumen bearbeitet.
- Besprechungen finden per Videokonferenz statt, sofern die Parteien nichts anderes vereinbaren.

Anwesenheitstermine vor Ort stimmen die Parteien mit einem Vorlauf von mindestens **fünf Arbeitstagen** ab.`,
        `The services are rendered mainly remotely. {partnerName} provides the access needed for remote work in good time before {startdatum}.

For services rendered remotely:
- The Contractor uses only up-to-date devices protected by disk encryption.
- Confidential documents are not worked on in publicly accessible places.
- Meetings take place by video conference unless agreed otherwise.

The parties agree on days on site at least **five working days** in advance.`,
      ),
      v(
        'Teilweise remote',
        'remoteAnteil > 0',
        `Die Leistungen werden teilweise vor Ort und teilweise remote erbracht; Einsatzort ist {einsatzort}. Die Aufteilung stimmen die Parteien im Rahmen der Projektplanung ab und halten sie für jeden Monat in Textform fest.

Für remote erbrachte Leistungen gelten die Sicherheitsvorgaben von {partnerName} entsprechend, soweit sie dem Auftragnehmer vor Beginn der Leistungen in Textform übermittelt wurden.`,
        `The services are rendered partly on site and partly remotely; the place of work is {einsatzort}.

Remote work follows the security rules of {partnerName} as far as they were sent to the Contractor in text form before the services began.`,
      ),
      v(
        'Vor Ort',
        null,
        `Die Leistungen werden grundsätzlich am Einsatzort ({einsatzort}) erbracht. {partnerName} stellt dort einen Arbeitsplatz mit der erforderlichen technischen Ausstattung und den nötigen Zugängen zur Verfügung.

Einzelne Tätigkeiten können nach vorheriger Abstimmung in Textform auch remote erbracht werden; ein Anspruch darauf besteht **nicht**.`,
        `The services are rendered at the place of work ({einsatzort}). {partnerName} provides a workplace there with the equipment and access needed.

Single tasks may be done remotely if agreed in text form beforehand; there is **no** right to it.`,
      ),
    ],
  },
  {
    key: 'projektende',
    name: 'Beendigung mit dem Projekt',
    option: 'always',
    variants: [
      v(
        'Projektpartner',
        'partner = projektpartner',
        `Endet das Projekt des Kunden {kunde}, für das der Auftragnehmer eingesetzt ist, vorzeitig oder wird es für mehr als vier Wochen unterbrochen, kann {firmaName} den betroffenen Einzelauftrag mit einer Frist von zwei Wochen kündigen.

Bereits erbrachte Leistungen werden bis zum Wirksamwerden der Kündigung vergütet. Weitergehende Ansprüche des Auftragnehmers, insbesondere auf entgangene Vergütung, bestehen **nicht**, es sei denn, {firmaName} hat die Beendigung zu vertreten.`,
        `If the project of the customer {kunde} ends early or is interrupted for more than four weeks, {firmaName} may terminate the individual order with two weeks' notice.

Services rendered until then are paid for. The Contractor has **no** further claims unless {firmaName} is responsible for the termination.`,
      ),
      v(
        'Kunde',
        'partner = kunde',
        `Verschiebt {partnerName} den Beginn eines vereinbarten Einsatzes um mehr als vier Wochen, ist {firmaName} berechtigt, die vorgesehenen Personen anderweitig einzusetzen und einen gleichwertig qualifizierten Ersatz anzubieten.

Sagt {partnerName} einen Einsatz weniger als zehn Arbeitstage vor seinem Beginn ab, vergütet er die für die ersten zehn Arbeitstage eingeplanten Stunden zu **50 %**, soweit die eingeplanten Personen nicht anderweitig eingesetzt werden können.`,
        `If {partnerName} postpones the start of an assignment by more than four weeks, {firmaName} may deploy the people planned elsewhere and offer an equally qualified replacement.

If {partnerName} cancels an assignment less than ten working days before it starts, it pays **50 %** of the hours planned for the first ten working days.`,
      ),
    ],
  },
  {
    key: 'preisanpassung',
    name: 'Preisanpassung',
    option: 'always',
    variants: [
      v(
        'Ab 120 € Stundensatz',
        'satz >= 120',
        `Der Stundensatz von {stundensatzRemote} ist für die ersten zwölf Monate ab dem {startdatum} fest. Danach kann {firmaName} ihn einmal je Kalenderjahr mit einer Ankündigungsfrist von drei Monaten anpassen.

Die Anpassung ist auf die Veränderung des vom Statistischen Bundesamt veröffentlichten Index der tariflichen Stundenverdienste seit der letzten Festsetzung begrenzt, höchstens jedoch auf **5 %** je Anpassung.

Übersteigt die Anpassung 3 %, kann {partnerName} die betroffenen Einzelaufträge zum Zeitpunkt ihres Wirksamwerdens mit einer Frist von einem Monat kündigen.`,
        `The hourly rate of {stundensatzRemote} is fixed for twelve months from {startdatum}. After that {firmaName} may adjust it once per calendar year with three months' notice.

An adjustment is limited to the change of the index of collectively agreed hourly earnings, at most **5 %** each time.

If an adjustment exceeds 3 %, {partnerName} may terminate the affected individual orders with one month's notice.`,
      ),
      v(
        'Standard',
        null,
        `Die vereinbarten Stundensätze gelten für die Laufzeit des jeweiligen Einzelauftrags. Wird ein Einsatz über zwölf Monate hinaus verlängert, verhandeln die Parteien die Stundensätze für die Verlängerung neu.

Kommt eine Einigung nicht zustande, gelten die bisherigen Sätze fort; jede Partei kann den Einzelauftrag dann mit einer Frist von **einem Monat** zum Monatsende kündigen.`,
        `The agreed hourly rates apply for the term of each individual order. If an assignment is extended beyond twelve months, the parties negotiate the rates for the extension.

Without agreement the previous rates continue; either party may then terminate the individual order with **one month's** notice to the end of a month.`,
      ),
    ],
  },
  {
    key: 'reisekosten',
    name: 'Reisekosten',
    option: 'always',
    variants: [
      v(
        'Ausland',
        'land != DE',
        `Reisen an einen Einsatzort außerhalb Deutschlands erfolgen nur nach vorheriger Freigabe durch {partnerName} in Textform. Die Freigabe legt Reiseziel, Dauer und das voraussichtliche Budget fest.

Erstattet werden gegen Nachweis:
- Flüge in der Economy Class oder Bahnfahrten in der 1. Klasse,
- Übernachtungen bis zu einem Betrag von 180 € je Nacht,
- Verpflegungsmehraufwand nach den steuerlichen Auslandspauschalen.

Reisezeiten gelten zu **50 %** als Arbeitszeit. Einreise- und Meldeformalitäten im Zielland übernimmt {firmaName}; Gebühren dafür trägt {partnerName}.`,
        `Travel to a place of work outside Germany needs the prior approval of {partnerName} in text form, stating destination, duration and budget.

Reimbursed against receipts:
- economy class flights or first class rail travel,
- hotels up to 180 € per night,
- meal allowances at the tax rates for the country.

Travel time counts as working time at **50 %**. {firmaName} handles entry and registration formalities; {partnerName} bears their fees.`,
      ),
      v(
        'Inland',
        null,
        `Reisekosten zum vereinbarten Einsatzort sind mit dem Stundensatz abgegolten. Reisen an andere Orte innerhalb Deutschlands erstattet {partnerName}, wenn er sie zuvor in Textform angefordert hat.

Erstattet werden Bahnfahrten in der 2. Klasse, Übernachtungen bis 130 € je Nacht und Verpflegungsmehraufwand nach den steuerlichen Pauschalen, jeweils gegen Nachweis.`,
        `Travel to the agreed place of work is covered by the hourly rate. {partnerName} reimburses travel elsewhere in Germany that it requested in text form.

Second class rail travel, hotels up to 130 € per night and meal allowances at the tax rates are reimbursed against receipts.`,
      ),
    ],
  },
  {
    key: 'ki-werkzeuge',
    name: 'Einsatz von KI-Werkzeugen',
    option: 'optional-on',
    variants: [
      v(
        'Standard',
        null,
        `Der Auftragnehmer darf bei der Erbringung der Leistungen Werkzeuge der künstlichen Intelligenz einsetzen, insbesondere zur Erstellung von Quelltext, Dokumentation und Entwürfen. Für die Ergebnisse bleibt er so verantwortlich, als hätte er sie selbst erstellt.

Dabei gilt:
- Vertrauliche Informationen von {partnerName} werden nur in Werkzeuge eingegeben, die sie nicht zum Training verwenden und nicht außerhalb der EU verarbeiten.
- Personenbezogene Daten werden nicht eingegeben.
- Auf Verlangen nennt der Auftragnehmer die eingesetzten Werkzeuge.

{partnerName} kann den Einsatz einzelner Werkzeuge aus **wichtigem Grund** untersagen.`,
        `The Contractor may use artificial intelligence tools in rendering the services, in particular for code, documentation and drafts. It remains responsible for the results as if it had made them itself.

In doing so:
- Confidential information of {partnerName} goes only into tools that neither train on it nor process it outside the EU.
- No personal data is entered.
- On request the Contractor names the tools used.

{partnerName} may forbid single tools for **good cause**.`,
      ),
    ],
  },
  {
    key: 'informationssicherheit',
    name: 'Informationssicherheit',
    option: 'always',
    variants: [
      v(
        'Standard',
        null,
        `Der Auftragnehmer hält bei Zugriffen auf Systeme von {partnerName} dessen Sicherheitsrichtlinien ein, soweit sie ihm vor Beginn der Leistungen zur Verfügung gestellt wurden. Er meldet Sicherheitsvorfälle, die die Systeme oder Daten von {partnerName} betreffen können, unverzüglich, spätestens **innerhalb von 24 Stunden**.

Der Auftragnehmer verpflichtet sich insbesondere,
1. Zugangsdaten nicht weiterzugeben und für jeden Zugang ein eigenes Passwort zu verwenden,
2. eine Mehr-Faktor-Anmeldung zu nutzen, wo {partnerName} sie anbietet,
3. Daten von {partnerName} nach dem Ende des Einsatzes zu löschen und die Löschung zu bestätigen.

Weitergehende Anforderungen aus Zertifizierungen von {partnerName} gelten, wenn die Parteien sie in einem Einzelauftrag vereinbaren.`,
        `When accessing systems of {partnerName}, the Contractor follows its security policies as far as they were made available before the services began. It reports security incidents without delay, **within 24 hours** at the latest.

The Contractor in particular undertakes
1. not to pass on credentials and to use a separate password for each access,
2. to use multi-factor sign-in where {partnerName} offers it,
3. to delete data of {partnerName} after the assignment and to confirm the deletion.`,
      ),
    ],
  },
  {
    key: 'haftungshoechstbetrag',
    name: 'Haftungshöchstbetrag',
    option: 'always',
    variants: [
      v(
        'Erhöhte Deckung',
        'satz >= 120 und partner = kunde',
        `In den Fällen leicht fahrlässiger Verletzung wesentlicher Vertragspflichten ist die Haftung von {firmaName} je Schadensfall auf **1.000.000 €** und für alle Schadensfälle eines Kalenderjahres auf 2.000.000 € begrenzt.

{firmaName} weist auf Verlangen von {partnerName} nach, dass eine Haftpflichtversicherung mit mindestens diesen Deckungssummen besteht.

Die Haftung nach dem Produkthaftungsgesetz und für Schäden aus der Verletzung des Lebens, des Körpers oder der Gesundheit bleibt unberührt.`,
        `For slightly negligent breach of material obligations the liability of {firmaName} is limited to **€1,000,000** per claim and €2,000,000 per calendar year.

On request of {partnerName}, {firmaName} proves liability insurance with at least these sums.

Liability under product liability law and for injury to life, body or health is unaffected.`,
      ),
      v(
        'Schweiz',
        'land = CH',
        `Die Haftung von {firmaName} für leichte Fahrlässigkeit ist je Schadensfall auf den Betrag der im betroffenen Einzelauftrag in den letzten zwölf Monaten vereinbarten Vergütung begrenzt, höchstens auf **500.000 CHF**.

Die Haftungsbegrenzung gilt nicht für Personenschäden und nicht, soweit zwingendes schweizerisches Recht, insbesondere Art. 100 OR, eine weitergehende Haftung vorsieht.`,
        `The liability of {firmaName} for slight negligence is limited per claim to the fees of the affected individual order in the last twelve months, at most **CHF 500,000**.

The limit does not apply to personal injury or where mandatory Swiss law, in particular Art. 100 CO, provides otherwise.`,
      ),
      v(
        'Standard',
        null,
        `In den Fällen leicht fahrlässiger Verletzung wesentlicher Vertragspflichten ist die Haftung je Schadensfall auf die Vergütung begrenzt, die für den betroffenen Einzelauftrag in den zwölf Monaten vor dem Schadensereignis vereinbart war, höchstens auf **250.000 €**.

Die Haftung nach dem Produkthaftungsgesetz und für Schäden aus der Verletzung des Lebens, des Körpers oder der Gesundheit bleibt unberührt.`,
        `For slightly negligent breach of material obligations liability per claim is limited to the fees of the affected individual order in the twelve months before the damage, at most **€250,000**.

Liability under product liability law and for injury to life, body or health is unaffected.`,
      ),
    ],
  },
  {
    key: 'compliance',
    name: 'Compliance',
    option: 'always',
    variants: [
      v(
        'Freiberufler',
        'partner = projektpartner und anstellungsart = freiberufler',
        `Der Auftragnehmer versichert, dass er neben dem Auftraggeber für weitere Auftraggeber tätig ist oder tätig sein kann, ein eigenes unternehmerisches Auftreten hat und eigene Betriebsmittel einsetzt. Er teilt {firmaName} unverzüglich mit, wenn ein Träger der Sozialversicherung seinen Status prüft.

Der Auftragnehmer hält die geltenden Gesetze zur Bekämpfung von Korruption ein. Er gewährt Mitarbeitern des Auftraggebers oder des Kunden {kunde} **keine** Vorteile, die geeignet sind, geschäftliche Entscheidungen zu beeinflussen.`,
        `The Contractor confirms that it works or may work for other clients, appears as a business of its own and uses its own equipment. It informs {firmaName} without delay of any status review by a social insurance body.

The Contractor complies with anti-corruption laws and grants employees of the Client or the customer {kunde} **no** advantages apt to influence business decisions.`,
      ),
      v(
        'Standard',
        null,
        `Die Parteien halten die geltenden Gesetze zur Bekämpfung von Korruption und die Vorschriften des Außenwirtschaftsrechts ein. Keine Partei gewährt Mitarbeitern der anderen Partei Vorteile, die geeignet sind, geschäftliche Entscheidungen zu beeinflussen.

{firmaName} zahlt den eingesetzten Personen mindestens den gesetzlichen Mindestlohn und weist dies {partnerName} auf Verlangen nach. Verstößt eine Partei **schwerwiegend** gegen diese Pflichten, kann die andere diesen Vertrag fristlos kündigen.`,
        `The parties comply with anti-corruption and foreign trade laws. Neither party grants employees of the other advantages apt to influence business decisions.

{firmaName} pays the people deployed at least the statutory minimum wage and proves it to {partnerName} on request. A **serious** breach entitles the other party to terminate without notice.`,
      ),
    ],
  },
  {
    key: 'laenderbestimmungen',
    name: 'Kunden im Ausland',
    option: 'always',
    variants: [
      v(
        'Schweiz',
        'land = CH',
        `Werden Leistungen in der Schweiz erbracht, meldet {firmaName} die eingesetzten Personen vor Beginn des Einsatzes im Meldeverfahren für kurzfristige Erwerbstätigkeit an und hält die Bestimmungen des Entsendegesetzes ein. {partnerName} unterstützt dabei, soweit Angaben aus seinem Bereich nötig sind.

Die Rechnungen weisen die schweizerische Mehrwertsteuer aus, soweit sie anfällt; im Übrigen gilt das Verfahren der **Bezugsteuer**.

Ausschließlicher Gerichtsstand für Streitigkeiten aus Einzelaufträgen, die in der Schweiz erbracht werden, ist Zürich; zwingende Gerichtsstände bleiben unberührt.`,
        `For services rendered in Switzerland, {firmaName} registers the people deployed before the assignment starts and complies with the Posted Workers Act. {partnerName} supports this where information from its side is needed.

Invoices show Swiss VAT where it applies; otherwise the **reverse charge** procedure applies.

Exclusive place of jurisdiction for individual orders rendered in Switzerland is Zurich.`,
      ),
      v(
        'Österreich und Liechtenstein',
        'land in [AT, LI]',
        `Werden Leistungen in Österreich oder Liechtenstein erbracht, meldet {firmaName} die eingesetzten Personen vor Beginn des Einsatzes bei der zuständigen Stelle (in Österreich: ZKO-Meldung) an und hält die Unterlagen nach den dortigen Vorschriften am Einsatzort bereit.

Für die Umsatzsteuer gilt das Verfahren der **Steuerschuldnerschaft des Leistungsempfängers**, soweit die Voraussetzungen vorliegen.`,
        `For services rendered in Austria or Liechtenstein, {firmaName} registers the people deployed with the competent authority before the assignment starts and keeps the records on site as required there.

For VAT the **reverse charge** procedure applies where its conditions are met.`,
      ),
    ],
  },
];

/** Where each clause goes: the tag paragraph is put before the first body paragraph with this text. */
const PLACES = {
  aenderungsverfahren: 'Leistungserbringung',
  'remote-arbeit': 'Laufzeit und Kündigung',
  projektende: 'Vergütung',
  preisanpassung: 'Leistungsnachweis, Rechnungsstellung und Zahlung',
  reisekosten: 'Vertraulichkeit',
  'ki-werkzeuge': 'Datenschutz und Informationssicherheit',
  informationssicherheit: 'Haftung',
  haftungshoechstbetrag: 'Nutzungsrechte an Arbeitsergebnissen',
  compliance: '{#hatZusatzvereinbarungen}',
  laenderbestimmungen: '{#unterschriften}',
};

const PARAGRAPH = /<w:p\b[^>]*?(?:\/>|>[\s\S]*?<\/w:p>)/g;
const TEXT = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g;
const paragraphText = (paragraph) => [...paragraph.matchAll(TEXT)].map((match) => match[1]).join('');

/**
 * templates/rahmenvertrag-de.docx with a paragraph of the template's style „Klausel“ holding only
 * `{@klausel:<key>}` for each clause: the last paragraph of a section, outside the template's conditions.
 */
export function templateWithClauseTags(PizZip, bytes) {
  const zip = new PizZip(bytes);
  const xml = zip.file('word/document.xml').asText();
  const paragraphs = [...xml.matchAll(PARAGRAPH)];
  let tagged = xml;
  for (const [key, before] of Object.entries(PLACES)) {
    const anchor = paragraphs.find((match) => paragraphText(match[0]) === before);
    if (!anchor) throw new Error(`rahmenvertrag-de.docx has no paragraph „${before}“ to place ${key} before`);
    const tag = `<w:p><w:pPr><w:pStyle w:val="Klausel"/></w:pPr><w:r><w:t>{@klausel:${key}}</w:t></w:r></w:p>`;
    tagged = tagged.replace(anchor[0], tag + anchor[0]);
  }
  zip.file('word/document.xml', tagged);
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}

/** The clauses as the library publishes them: version `version` of each, in memory. */
export function publishedLibrary(clauses = CLAUSES, version = 1) {
  return new Map(
    clauses.map((clause) => [
      clause.key,
      {
        key: clause.key,
        name: clause.name,
        version,
        content: { option: clause.option, variants: clause.variants },
      },
    ]),
  );
}

/** `PublishedClauses` of the server (clause-choice.ts) answered from memory: one look-up per document. */
export class PublishedClausesInMemory {
  constructor(library) {
    this.library = library;
  }

  async published(keys) {
    const found = new Map();
    for (const key of keys) {
      const clause = this.library.get(key);
      if (clause) found.set(key, clause);
    }
    return found;
  }
}

/** Customer addresses of the deals: German ones as the CRM writes them, Swiss, Austrian, Liechtenstein. */
const ADDRESSES = [
  null,
  'Bahnhofstrasse 10, 8001 Zürich, Schweiz',
  'CH-4051 Basel',
  'Kärntner Ring 5, 1010 Wien, Österreich',
  'A-5020 Salzburg',
  'Städtle 12, 9490 Vaduz, Liechtenstein',
  'Leopoldstraße 23\n80802 München',
];
const RATES = [85, '98,50', 112, 120, '127,50', 135, 160];
const PLACES_OF_WORK = [null, 'remote', '50 % remote', 'remote 20%', 'München, vor Ort', 'Zürich / remote'];
const HOURS = [16, 24, 32, 40];

/**
 * `count` deals for the Rahmenvertrag: the demo matches with the customer's country, the rates, the place
 * of work and the hours varied, each with one of the catalogue's keys of this template (company, customer
 * or project partner). Deterministic, so that runs compare.
 */
export function dealsFor({ count, matches, entries }) {
  // mulberry32: every bit of it is random enough for `% n`, unlike a plain linear congruential generator's.
  let seed = 20260101;
  const next = (n) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  return Array.from({ length: count }, () => {
    const match = { ...matches[next(matches.length)] };
    const address = ADDRESSES[next(ADDRESSES.length)];
    if (address) match.adresseKunde = address;
    const rate = RATES[next(RATES.length)];
    match.vk = rate;
    match.ek = typeof rate === 'number' ? rate - 25 : rate;
    const place = PLACES_OF_WORK[next(PLACES_OF_WORK.length)];
    if (place) match.einsatzort = place;
    match.stundenProWoche = HOURS[next(HOURS.length)];
    return { entry: entries[next(entries.length)], match };
  });
}
