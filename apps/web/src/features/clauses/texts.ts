import { CLAUSE_OPTION_LABELS, type ClauseOption } from '@vertragsgenerator/domain';

const versionList = (versions: readonly number[]) =>
  versions.length === 1 ? `Version ${versions[0]}` : `Versionen ${versions.join(', ')}`;

/** The German texts of the clause library's pages (the editor's are in editor-texts.ts). */
export const clauseTexts = {
  list: {
    heading: 'Klauseln',
    intro:
      'Absätze, die die Rechtsabteilung einmal pflegt – Haftung, Datenschutz, Remote-Arbeit, Schweizer Recht – auf Deutsch und Englisch. Eine Vorlage setzt eine Klausel mit ihrem Platzhalter ein; Regeln zum Deal wählen, welche Variante ein Dokument bekommt.',
    newClause: 'Neue Klausel',
    clause: 'Klausel',
    key: 'Schlüssel',
    published: 'Veröffentlicht',
    drafts: 'Entwürfe',
    templates: 'In Vorlagen',
    version: (version: number) => `Version ${version}`,
    since: (when: string) => `seit ${when}`,
    none: 'keine',
    draftCount: (count: number) => (count === 1 ? '1 Entwurf' : `${count} Entwürfe`),
    open: (name: string) => `Klausel ${name} öffnen`,
    empty: 'Noch keine Klausel angelegt.',
    loadFailed: 'Die Klauseln konnten nicht geladen werden.',
  },
  create: {
    heading: 'Neue Klausel',
    intro:
      'Die erste Version wird als Entwurf gespeichert und sofort geprüft; veröffentlicht wird sie auf der Seite der Klausel.',
    key: 'Schlüssel',
    keyDescription: (tag: string) =>
      `Kleinbuchstaben, Ziffern und Bindestriche. Die Vorlage setzt die Klausel mit ${tag} ein; der Schlüssel bleibt fest.`,
    keyPlaceholder: 'z. B. haftung',
    name: 'Name',
    namePlaceholder: 'z. B. Haftung',
    needsApproval: 'Änderungen brauchen Freigabe',
    needsApprovalDescription:
      'Ändert jemand den Text der Klausel in einem Dokument, braucht das Dokument eine Freigabe – wie bei einem markierten Absatz einer Vorlage.',
    comment: 'Kommentar zur ersten Version',
    commentPlaceholder: 'z. B. Haftung nach Vorgabe der Rechtsabteilung',
    submit: 'Klausel anlegen',
    cancel: 'Abbrechen',
  },
  clause: {
    back: 'Alle Klauseln',
    key: (key: string) => `Schlüssel ${key}`,
    tag: 'In einer Vorlage steht die Klausel als eigener Absatz:',
    loadFailed: 'Die Klausel konnte nicht geladen werden.',
    notFound: 'Klausel nicht gefunden',
    newVersion: 'Neue Version',
    saved: 'Gespeichert',
    publishComment: (comment: string) => `„${comment}“`,
  },
  settings: {
    heading: 'Einstellungen',
    intro: 'Name und Freigabe gelten für alle Versionen; jede Änderung steht im Protokoll.',
    save: 'Einstellungen speichern',
    saved: 'Die Einstellungen sind gespeichert.',
  },
  review: {
    heading: (version: number) => `Version ${version}`,
    meta: (who: string, when: string) => `Gespeichert von ${who} am ${when}`,
    publishedMeta: (who: string, when: string) => `Veröffentlicht von ${who} am ${when}`,
    noProblems: 'Keine Probleme gefunden: Regeln, Texte und Platzhalter passen.',
    wholeClause: 'Ganze Klausel',
    contentHeading: 'Inhalt',
    variant: (index: number, name: string) => `Variante ${index + 1}: ${name}`,
    rule: 'Regel',
    always: 'gilt immer',
    german: 'Deutsch',
    english: 'Englisch',
    emptyText: '(leer)',
    option: 'Beim Erstellen',
    optionLabels: CLAUSE_OPTION_LABELS as Record<ClauseOption, string>,
  },
  compare: {
    heading: 'Was sich ändert',
    base: 'Vergleichen mit',
    publishedBase: (version: number) => `der veröffentlichten Version ${version}`,
    otherBase: (version: number) => `Version ${version}`,
    nothingPublished: 'keiner (keine Version ist veröffentlicht)',
    thisIsPublished: 'keiner (diese Version ist veröffentlicht)',
    against: (base: number) => `Der Text dieser Version gegenüber Version ${base}, je Variante und Sprache.`,
    noBase: 'Es ist keine Version veröffentlicht; der ganze Text ist neu.',
    comparedIsPublished: 'Das ist die veröffentlichte Version: wähle eine andere zum Vergleichen.',
    noChanges: 'Der Text ist in keiner Variante und keiner Sprache verändert.',
    part: (variant: string, language: string) => `Variante „${variant}“, ${language}`,
    unchanged: (parts: string) => `Unverändert: ${parts}.`,
    added: 'eingefügt',
    removed: 'gestrichen',
    keptParagraphs: (count: number) =>
      count === 1 ? '… 1 unveränderter Absatz …' : `… ${count} unveränderte Absätze …`,
    loadFailed: 'Der Vergleich konnte nicht geladen werden.',
  },
  trial: {
    heading: 'An einem Deal ausprobieren',
    intro:
      'Zeigt für jedes Dokument, das die Klausel einsetzt, welche Variante der Deal bekäme, warum, und den Text mit den Werten des Deals. Nichts davon wird gespeichert.',
    document: 'Dokument',
    language: 'Sprache',
    variant: 'Variante',
    reason: 'Grund',
    text: 'Text',
    omitted: 'weggelassen',
    chosen: (variant: string, version: number) => `${variant} (Version ${version})`,
    languages: { de: 'Deutsch', en: 'Englisch' } as Record<'de' | 'en', string>,
    noDocuments: 'Kein Dokument setzt die Klausel ein: eine Vorlage braucht erst ihren Platzhalter.',
  },
  publish: {
    intro: (version: number, published: number | null) =>
      published === null
        ? `Version ${version} gilt ab dem nächsten Dokument.`
        : `Version ${version} ersetzt Version ${published}: das nächste Dokument bekommt sie. Laufende Verträge behalten ihre Version.`,
  },
  usage: {
    heading: 'Verwendung',
    templatesHeading: 'Vorlagen',
    noTemplates: 'Keine Vorlage setzt die Klausel ein.',
    templatesCaption: 'Vorlagen, die die Klausel einsetzen',
    template: 'Vorlage',
    state: 'Stand',
    inPublished: 'in der veröffentlichten Version',
    onlyDrafts: 'nur in Entwürfen',
    versions: 'Versionen der Vorlage',
    versionList,
    contractsHeading: 'Laufende Verträge',
    contractsIntro:
      'Verträge behalten die Version, mit der sie entstanden sind; die mit einer älteren Version stehen oben.',
    noContracts: 'Kein laufender Vertrag enthält die Klausel.',
    contract: 'Vertrag',
    matchId: 'Match-ID',
    version: 'Version',
    variant: 'Variante',
    outdated: 'ältere Version',
    current: 'aktuell',
    openContract: (title: string) => `Vertrag ${title} öffnen`,
  },
  remove: {
    heading: 'Klausel löschen',
    intro: 'Löschen geht nur, solange keine Vorlage die Klausel einsetzt; ihre Versionen gehen mit ihr.',
    button: 'Klausel löschen',
    title: (name: string) => `Klausel „${name}“ löschen?`,
    confirmText:
      'Die Klausel und alle ihre Versionen werden gelöscht. Das lässt sich nicht rückgängig machen.',
    confirm: 'Endgültig löschen',
    cancel: 'Abbrechen',
  },
};
