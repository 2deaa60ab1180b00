/** The history's texts about reads and deletions (data protection). */
export const privacyTexts = {
  readsButton: 'Zugriffe',
  readsTitle: (fileName: string) => `Zugriffe auf ${fileName}`,
  readsEmpty: 'Noch niemand hat dieses Dokument geöffnet, heruntergeladen oder geprüft.',
  readsCaption: 'Wer das Dokument, eine Version, das gesiegelte PDF oder das Zertifikat geöffnet hat',
  when: 'Wann',
  who: 'Wer',
  what: 'Was',
  close: 'Schließen',
  version: (version: number) => ` (Version ${version})`,
  deletedHeading: 'Gelöscht',
  deletedIntro:
    'Diese Dateien gab es; sie wurden nach einer Aufbewahrungsregel oder auf Antrag gelöscht. Der SHA-256 belegt, was es war.',
  deletedKind: {
    document: 'Dokument',
    sealed_pdf: 'Gesiegeltes PDF',
    certificate: 'Zertifikat',
    signed_pdf: 'Unterschriebenes PDF',
  } as Record<string, string>,
  deletedRule: 'Regel',
  deletedAt: 'Gelöscht am',
  deletedWhat: 'Was',
};
