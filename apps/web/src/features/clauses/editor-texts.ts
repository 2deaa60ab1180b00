/** The German texts of the clause editor and its help on rules and markup. */
export const editorTexts = {
  newVersion: {
    heading: 'Neue Version',
    intro: (base: number) =>
      `Ausgangspunkt ist der Inhalt von Version ${base}. Gespeichert wird ein Entwurf, den der Server sofort prüft; veröffentlicht wird er erst mit „Veröffentlichen“.`,
    comment: 'Was ändert sich?',
    commentPlaceholder: 'z. B. Haftung für leichte Fahrlässigkeit begrenzt',
    submit: 'Version speichern und prüfen',
    cancel: 'Abbrechen',
    saved: (version: number, problems: number) =>
      problems === 0
        ? `Version ${version} ist gespeichert, ohne Probleme.`
        : `Version ${version} ist gespeichert – mit ${problems === 1 ? 'einem Problem' : `${problems} Problemen`}, siehe unten.`,
  },
  content: {
    variants: 'Varianten',
    variantsIntro:
      'Ein Dokument bekommt die erste Variante, deren Regel zutrifft; eine Variante ohne Regel gilt immer. Trifft keine zu, fehlt die Klausel im Dokument.',
    variant: (index: number, name: string) =>
      name.trim() ? `Variante ${index + 1}: ${name.trim()}` : `Variante ${index + 1}`,
    name: 'Name der Variante',
    namePlaceholder: 'z. B. Schweiz',
    rule: 'Regel',
    ruleDescription: 'Leer lassen: gilt immer.',
    rulePlaceholder: 'z. B. land = CH und partner = kunde',
    de: 'Deutscher Text',
    en: 'Englischer Text',
    add: 'Variante hinzufügen',
    up: (index: number) => `Variante ${index + 1} nach oben`,
    down: (index: number) => `Variante ${index + 1} nach unten`,
    remove: (index: number) => `Variante ${index + 1} entfernen`,
    upShort: 'Nach oben',
    downShort: 'Nach unten',
    removeShort: 'Entfernen',
    option: 'Beim Erstellen des Dokuments',
    newVariant: 'Neue Variante',
  },
  ruleHelp: {
    summary: 'So schreibst du Regeln',
    intro: 'Eine Regel vergleicht Felder des Deals mit Werten:',
    operators: [
      ['=  !=', 'gleich, ungleich'],
      ['<  <=  >  >=', 'kleiner, kleiner gleich, größer, größer gleich (bei Zahlen)'],
      ['in [a, b]', 'einer der Werte in der Liste'],
      ['und  oder  nicht', 'verbinden Vergleiche; „und“ bindet stärker als „oder“'],
      ['( … )', 'Klammern fassen zusammen'],
    ] as const,
    values: 'Werte stehen ohne Anführungszeichen oder in Anführungszeichen, wenn sie Leerzeichen enthalten.',
    examples: 'Beispiele:',
    exampleList: [
      'land = CH und partner = kunde',
      'satz >= 120',
      'firma in [wm, we] und nicht vertragsart = einzelauftrag',
      'anstellungsart = "Freiberufler" oder remoteAnteil >= 50',
    ],
    fields: 'Felder',
    field: 'Feld',
    meaning: 'Bedeutung',
    fieldValues: 'Werte',
    kinds: { text: 'Text', number: 'Zahl', choice: 'Auswahl' } as Record<string, string>,
  },
  markupHelp: {
    summary: 'So schreibst du Texte',
    items: [
      ['Leerzeile', 'trennt Absätze'],
      ['- ', 'am Zeilenanfang: Aufzählungspunkt'],
      ['1. ', 'am Zeilenanfang: nummerierter Punkt'],
      ['**fett**', 'fett gedruckt'],
      ['{kunde}', 'Platzhalter aus dem Feldverzeichnis der Vorlagen, mit den Werten des Deals gefüllt'],
    ] as const,
    placeholders: 'Alle Platzhalter ansehen',
  },
  validation: {
    fixFields: 'Bitte korrigiere die rot markierten Felder.',
  },
};
