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
};
