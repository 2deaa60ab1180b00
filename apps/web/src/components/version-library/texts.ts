import type { TemplateVersionStatus } from '@vertragsgenerator/domain';

/** The German texts a library of versioned texts (templates, clauses) shows on every record's page. */
export const versionLibraryTexts = {
  versions: {
    heading: 'Versionen',
    version: 'Version',
    status: 'Status',
    comment: 'Kommentar',
    publishedColumn: 'Veröffentlicht',
    actions: 'Aktionen',
    problems: (count: number) => (count === 1 ? '1 Problem' : `${count} Probleme`),
    review: 'Ansehen',
    reviewLabel: (version: number) => `Version ${version} ansehen`,
  },
  check: {
    heading: 'Prüfung',
    problemsTitle: (count: number) =>
      count === 1
        ? 'Ein Problem – so kann die Version nicht veröffentlicht werden'
        : `${count} Probleme – so kann die Version nicht veröffentlicht werden`,
  },
  statusColors: { Entwurf: 'gray', veröffentlicht: 'green', ersetzt: 'yellow' } satisfies Record<
    TemplateVersionStatus,
    string
  >,
  trial: {
    matchId: 'Match-ID',
    matchIdDescription: 'Leer lassen für das Demo-Match mit den meisten Werten.',
    tryIt: 'Ausprobieren',
    trialFor: (matchId: string) => `Mit ${matchId}:`,
    failed: 'Das Ausprobieren ist fehlgeschlagen.',
  },
  publish: {
    heading: 'Veröffentlichen',
    publish: 'Veröffentlichen',
    rollback: (version: number) => `Version ${version} wieder veröffentlichen`,
    cannotPublish: 'Erst eine Version ohne Probleme kann veröffentlicht werden.',
    isPublished: 'Das ist die veröffentlichte Version.',
    title: (version: number) => `Version ${version} veröffentlichen`,
    comment: 'Kommentar für das Protokoll',
    commentPlaceholder: 'z. B. von der Rechtsabteilung freigegeben',
    confirm: 'Veröffentlichen',
    cancel: 'Abbrechen',
    done: (version: number) => `Version ${version} ist veröffentlicht.`,
  },
};
