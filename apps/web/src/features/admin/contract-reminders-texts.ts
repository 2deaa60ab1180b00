/** The German texts of /verwaltung → Vertragserinnerungen. */
export const contractReminderTexts = {
  intro:
    'Vor der Kündigungsfrist und vor dem Ende eines laufenden Vertrags bekommen die Berater:in des Deals und Legal je eine E-Mail. Hier steht, wie viele Tage vorher, je Gesellschaft.',
  company: 'Gesellschaft',
  noticeDays: (company: string) => `${company}: Tage vor der Kündigungsfrist`,
  endDays: (company: string) => `${company}: Tage vor dem Vertragsende`,
  changed: (by: string, at: string) => `Zuletzt geändert von ${by} am ${at}`,
  unchanged: 'Voreinstellung',
  save: 'Speichern',
  saved: 'Die Vertragserinnerungen sind gespeichert. Sie gelten ab dem nächsten Lauf.',
  notANumber: 'Bitte gib eine ganze Zahl von Tagen an.',
};
