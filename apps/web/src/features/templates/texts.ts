import { formatByteSize, TEMPLATE_MAX_BYTES } from '@vertragsgenerator/domain';

const limit = formatByteSize(TEMPLATE_MAX_BYTES);

/** The German texts of the template library's pages. */
export const templateTexts = {
  placeholders: {
    heading: 'Platzhalter',
    intro:
      'Alles, was eine Vorlage in geschweiften Klammern verwenden kann. Tippe einen Platzhalter in Word in einem Zug oder kopiere ihn hier.',
    examplesFrom: (matchId: string) => `Die Beispiele stammen aus dem Demo-Match ${matchId}.`,
    noExamples: 'Ohne Demo-Matches gibt es hier keine Beispiele.',
    filter: 'Suchen',
    filterPlaceholder: 'Name oder Bedeutung',
    sections: { text: 'Felder', condition: 'Bedingungen', loop: 'Wiederholungen' },
    sectionIntro: {
      text: 'Werden durch den Wert ersetzt; ein fehlender Wert wird zu einer Linie zum Ausfüllen.',
      condition:
        'Der Teil zwischen {#name} und {/name} erscheint nur, wenn die Bedingung zutrifft; {^name} … {/name}, wenn nicht.',
      loop: 'Der Teil zwischen {#name} und {/name} wiederholt sich für jeden Eintrag; darin gelten die Felder des Eintrags.',
    },
    placeholder: 'Platzhalter',
    meaning: 'Bedeutung',
    example: 'Beispiel',
    copy: 'Kopieren',
    copyLabel: (syntax: string) => `${syntax} kopieren`,
    copied: 'Kopiert',
    inLoop: (loop: string) => `in {#${loop}}`,
    none: 'Kein Platzhalter passt zur Suche.',
    loadFailed: 'Die Platzhalter konnten nicht geladen werden.',
  },
  list: {
    heading: 'Vorlagen',
    intro:
      'Die Vertragstexte, aus denen die Dokumente entstehen. Eine neue Fassung wird hier hochgeladen, sofort geprüft, an echten Matches ausprobiert, mit dem veröffentlichten Text verglichen und dann veröffentlicht – ohne Neustart.',
    placeholdersLink: 'Platzhalter ansehen',
    template: 'Vorlage',
    family: 'Dokumentart',
    keys: 'Dokumente',
    published: 'Veröffentlicht',
    drafts: 'Entwürfe',
    version: (version: number) => `Version ${version}`,
    by: (who: string, when: string) => `von ${who} am ${when}`,
    none: 'keine',
    keyCount: (count: number) => (count === 1 ? '1 Dokument' : `${count} Dokumente`),
    draftCount: (count: number) => (count === 1 ? '1 Entwurf' : `${count} Entwürfe`),
    open: (name: string) => `Vorlage ${name} öffnen`,
    loadFailed: 'Die Vorlagen konnten nicht geladen werden.',
  },
  template: {
    back: 'Alle Vorlagen',
    usedFor: (families: string, count: number) =>
      `${families} · für ${count === 1 ? '1 Dokument' : `${count} Dokumente`}`,
    loadFailed: 'Die Vorlage konnte nicht geladen werden.',
    versions: 'Versionen',
    version: 'Version',
    status: 'Status',
    comment: 'Kommentar',
    uploaded: 'Hochgeladen',
    publishedColumn: 'Veröffentlicht',
    actions: 'Aktionen',
    problems: (count: number) => (count === 1 ? '1 Problem' : `${count} Probleme`),
    review: 'Ansehen',
    reviewLabel: (version: number) => `Version ${version} ansehen`,
    download: 'Herunterladen',
    downloadLabel: (version: number) => `Version ${version} herunterladen`,
    downloadFailed: 'Die Datei konnte nicht geladen werden.',
  },
  upload: {
    heading: 'Neue Version hochladen',
    file: 'Word-Datei (.docx)',
    fileDescription: `Höchstens ${limit}. Die Datei wird sofort geprüft und als Entwurf gespeichert.`,
    clear: 'Datei entfernen',
    comment: 'Was ändert sich?',
    commentPlaceholder: 'z. B. Bindefrist auf sechs Wochen verlängert',
    submit: 'Hochladen und prüfen',
    chooseFile: 'Bitte eine Word-Datei auswählen.',
    tooLarge: `Die Datei ist größer als ${limit}. Eine Vorlage ist ein Vertragstext von einigen Kilobyte.`,
    uploading: 'Wird hochgeladen und geprüft …',
  },
  review: {
    heading: (version: number) => `Version ${version}`,
    checkHeading: 'Prüfung',
    noProblems: 'Keine Probleme gefunden: Platzhalter, Abschnitte und Unterschriftsanker passen.',
    problemsTitle: (count: number) =>
      count === 1
        ? 'Ein Problem – so kann die Version nicht veröffentlicht werden'
        : `${count} Probleme – so kann die Version nicht veröffentlicht werden`,
    meant: (suggestion: string) => `Gemeint: ${suggestion}?`,
    changesHeading: 'Was sich ändert',
    againstPublished: (base: number) =>
      `Der Text dieser Version gegenüber der veröffentlichten Version ${base}, Absatz für Absatz.`,
    noBase: 'Es ist keine Version veröffentlicht; der ganze Text ist neu.',
    isPublished: 'Das ist die veröffentlichte Version.',
    comparedIsPublished: 'Das ist die veröffentlichte Version: es gibt nichts zu vergleichen.',
    noChanges: 'Der Text ist unverändert (geändert haben sich höchstens Formatierung, Kopf- oder Fußzeile).',
    keptParagraphs: (count: number) =>
      count === 1 ? '… 1 unveränderter Absatz …' : `… ${count} unveränderte Absätze …`,
    added: 'eingefügt',
    removed: 'gestrichen',
    loadFailed: 'Der Vergleich konnte nicht geladen werden.',
    trialHeading: 'An einem Match ausprobieren',
    trialIntro:
      'Erstellt jedes Dokument, das diese Vorlage verwendet, mit den Werten eines Matches – so, wie es nach dem Veröffentlichen entstünde. Nichts davon wird gespeichert.',
    matchId: 'Match-ID',
    matchIdDescription: 'Leer lassen für das Demo-Match mit den meisten Werten.',
    tryIt: 'Ausprobieren',
    trialFor: (matchId: string) => `Mit ${matchId}:`,
    document: 'Dokument',
    blank: 'Bleibt leer',
    nothingBlank: '–',
    show: 'Anzeigen',
    showLabel: (key: string) => `${key} anzeigen`,
    downloadLabel: (key: string) => `${key} herunterladen`,
    notRendered: 'Nicht erstellt',
    trialFailed: 'Das Ausprobieren ist fehlgeschlagen.',
    viewing: (key: string) => `Vorschau: ${key}`,
    publishHeading: 'Veröffentlichen',
    publish: 'Veröffentlichen',
    rollback: (version: number) => `Version ${version} wieder veröffentlichen`,
    cannotPublish: 'Erst eine Version ohne Probleme kann veröffentlicht werden.',
    publishIntro: (version: number, published: number | null) =>
      published === null
        ? `Version ${version} wird für das nächste Dokument verwendet.`
        : `Version ${version} ersetzt Version ${published}: das nächste Dokument entsteht aus ihr, in jedem Serverprozess.`,
  },
  publish: {
    title: (version: number) => `Version ${version} veröffentlichen`,
    comment: 'Kommentar für das Protokoll',
    commentPlaceholder: 'z. B. von der Rechtsabteilung freigegeben',
    commentMissing: 'Bitte kurz beschreiben, was sich ändert.',
    confirm: 'Veröffentlichen',
    cancel: 'Abbrechen',
    done: (version: number) => `Version ${version} ist veröffentlicht.`,
  },
  statusColors: { Entwurf: 'gray', veröffentlicht: 'green', ersetzt: 'yellow' } as Record<string, string>,
};
