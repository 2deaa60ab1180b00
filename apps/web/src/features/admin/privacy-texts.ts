import { formatPeriod, type RetentionPeriod } from '@vertragsgenerator/domain';

/** The German texts of the tabs Aufbewahrung and Personendaten on /verwaltung. */
export const privacyTexts = {
  retention: {
    rulesHeading: 'Aufbewahrungsregeln',
    rulesIntro:
      'Was nach Ablauf seiner Frist fällig ist, löscht ein täglicher Lauf. Umschläge und ihre Ereignisse bleiben mit dem SHA-256 des Gelöschten, damit der Verlauf zeigt, dass es den Vertrag gab.',
    rule: 'Regel',
    from: 'Frist läuft',
    period: 'Aufbewahrung',
    changed: 'Zuletzt geändert',
    defaultValue: 'Voreinstellung',
    changedBy: (who: string, when: string) => `${who}, ${when}`,
    value: (label: string) => `Dauer für ${label}`,
    unit: (label: string) => `Einheit für ${label}`,
    units: [
      { value: 'days', label: 'Tage' },
      { value: 'months', label: 'Monate' },
      { value: 'years', label: 'Jahre' },
    ],
    save: 'Speichern',
    saveLabel: (label: string) => `${label} speichern`,
    saved: (label: string, period: RetentionPeriod) => `${label}: jetzt ${formatPeriod(period)}.`,
    never: 'nie',
    holdsHeading: 'Aufbewahrungssperren',
    holdsIntro:
      'Eine Sperre hält alles eines Matches von jeder Löschung zurück, bis sie aufgehoben wird – etwa bei einem Rechtsstreit oder einer Prüfung.',
    matchId: 'Match-ID',
    reason: 'Grund',
    place: 'Sperre setzen',
    placed: (matchId: string) => `Aufbewahrungssperre für ${matchId} gesetzt.`,
    action: 'Aktion',
    lift: 'Aufheben',
    liftLabel: (matchId: string) => `Sperre für ${matchId} aufheben`,
    lifted: (matchId: string) => `Sperre für ${matchId} aufgehoben.`,
    noHolds: 'Keine Aufbewahrungssperren.',
    holdPlaced: (who: string, when: string) => `gesetzt von ${who} am ${when}`,
    holdLifted: (who: string, when: string) => `aufgehoben von ${who} am ${when}`,
    active: 'aktiv',
    runsHeading: 'Letzte Löschläufe',
    noRuns: 'Noch kein Löschlauf.',
    runStarted: 'Begonnen',
    runFinished: 'Beendet',
    runDeleted: 'Gelöscht',
    running: 'läuft oder abgebrochen',
    nothing: 'nichts fällig',
  },
  person: {
    intro:
      'Auskunft (Art. 15 DSGVO) und Löschung (Art. 17 DSGVO): Suche eine Person über ihre E-Mail-Adresse oder ihren Namen.',
    query: 'E-Mail-Adresse oder Name',
    search: 'Suchen',
    hits: (n: number) => (n === 1 ? '1 Fundstelle' : `${n} Fundstellen`),
    noHits: 'Keine Fundstellen.',
    truncated: (sources: string) =>
      `Die Suche zeigt je Fundort höchstens 200 Fundstellen; mehr gibt es bei: ${sources}. Eine genauere Suche (die E-Mail-Adresse statt des Namens) grenzt sie ein; Auskunft und Löschung nehmen alle.`,
    source: 'Fundort',
    match: 'Match',
    where: 'Wo',
    value: 'Inhalt',
    exportButton: 'Auskunft als ZIP exportieren',
    exported: (records: number, files: number, until: string) =>
      `Export mit ${records} Datensätzen und ${files} Dateien heruntergeladen; der Download gilt bis ${until}.`,
    eraseButton: 'Personendaten löschen …',
    eraseNeedsEmail:
      'Löschen geht über die E-Mail-Adresse oder den vollen Namen (Vor- und Nachname) der Person: suche danach.',
    confirmTitle: 'Personendaten löschen',
    confirmText: (person: string) =>
      `Alles zu ${person}, was keine Aufbewahrungspflicht hält, wird sofort gelöscht oder anonymisiert. Was eine Pflicht hält, bleibt bis zum Ende seiner Frist und wird aufgelistet. Das lässt sich nicht rückgängig machen.`,
    confirmByName:
      'Gelöscht wird überall, wo der volle Name steht – auch in Matches, Dokumenten und Umschlägen unter anderen Adressen. Einträge in der Mitarbeiterliste, Zugangsanfragen und Problemmeldungen bleiben: sie werden nur über ihre E-Mail-Adresse gelöscht.',
    confirm: 'Endgültig löschen',
    cancel: 'Abbrechen',
    erasedHeading: 'Gelöscht',
    nothingErased: 'Nichts war sofort zu löschen.',
    retainedHeading: 'Aufbewahrt (Pflicht)',
    retainedRule: 'Regel',
    retainedUntil: 'Gelöscht am',
    retainedWhat: 'Was',
    untilNever: '–',
  },
};
