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
    uploaded: 'Hochgeladen',
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
    document: 'Dokument',
    blank: 'Bleibt leer',
    nothingBlank: '–',
    clauses: 'Klauseln',
    clauseChoice: (name: string, variant: string | null, reason: string) =>
      `${name}: ${variant ?? 'weggelassen'} (${reason})`,
    show: 'Anzeigen',
    showLabel: (key: string) => `${key} anzeigen`,
    downloadLabel: (key: string) => `${key} herunterladen`,
    notRendered: 'Nicht erstellt',
    viewing: (key: string) => `Vorschau: ${key}`,
    publishIntro: (version: number, published: number | null) =>
      published === null
        ? `Version ${version} wird für das nächste Dokument verwendet.`
        : `Version ${version} ersetzt Version ${published}: das nächste Dokument entsteht aus ihr, in jedem Serverprozess.`,
  },
  marks: {
    heading: 'Freigabe bei Änderung',
    intro:
      'Ändert jemand in einem Dokument aus dieser Version einen markierten Absatz, braucht das Dokument eine Freigabe – mit dem Namen des Absatzes als Grund.',
    listLabel: 'Markierte Absätze',
    none: 'Kein Absatz dieser Version ist markiert.',
    name: 'Name',
    paragraph: 'Absatz',
    actions: 'Aktionen',
    remove: 'Entfernen',
    removeLabel: (label: string) => `Markierung „${label}“ entfernen`,
    showAll: 'Ganzen Absatz zeigen',
    showAllLabel: (label: string) => `Ganzen Absatz zeigen („${label}“)`,
    showLess: 'Gekürzt zeigen',
    showLessLabel: (label: string) => `Gekürzt zeigen („${label}“)`,
    addHeading: 'Absatz markieren',
    choose: 'Absatz',
    chooseDescription: 'Suche nach einem Wort aus dem Absatz.',
    choosePlaceholder: 'Absatz suchen',
    chooseMissing: 'Bitte wähle einen Absatz.',
    nothingFound: 'Kein unmarkierter Absatz passt zur Suche.',
    allMarked: 'Alle Absätze dieser Version sind markiert.',
    option: (number: number, text: string) => `${number}. ${text}`,
    label: 'Name des Absatzes',
    labelDescription: 'Steht als Grund in der Freigabe, höchstens 60 Zeichen.',
    labelPlaceholder: 'z. B. Haftung',
    add: 'Absatz markieren',
    added: (label: string) => `„${label}“ ist markiert.`,
    removed: (label: string) => `Die Markierung „${label}“ ist entfernt.`,
    loadFailed: 'Die markierten Absätze konnten nicht geladen werden.',
    changeFailed: 'Die Markierungen konnten nicht gespeichert werden.',
  },
};
