import { formatByteSize, SEAL_CHECK_MAX_BYTES, type SealCheckVerdict } from '@vertragsgenerator/domain';

const limit = formatByteSize(SEAL_CHECK_MAX_BYTES);

/** The German texts of /pruefen. */
export const sealCheckTexts = {
  heading: 'PDF prüfen',
  intro:
    'Prüfe, ob ein unterschriebenes PDF unverändert ist und von uns versiegelt wurde – etwa eines, das dir ein Kunde zurückschickt.',
  file: 'PDF-Datei',
  fileDescription: `Das unterschriebene PDF aus der Abschluss-E-Mail oder der Match-Historie (höchstens ${limit})`,
  clear: 'Datei entfernen',
  drop: 'PDF hierher ziehen oder oben auswählen',
  checking: 'Wird geprüft …',
  tooLarge: `Die Datei ist zu groß (höchstens ${limit}).`,
  checkedFile: (name: string) => `Geprüft: ${name}`,
  verdicts: {
    sealed: {
      title: 'Unverändert und von uns versiegelt',
      text: 'Dieses PDF ist genau das Dokument, das wir nach der letzten Unterschrift versiegelt haben.',
    },
    unknown_envelope: {
      title: 'Unser Siegel, aber kein Umschlag dazu',
      text: 'Das Siegel ist echt und das PDF unverändert, doch zu diesem PDF gibt es hier keinen Umschlag. Es stammt vielleicht aus einer anderen Installation oder aus der Zeit vor einer Wiederherstellung.',
    },
    changed: {
      title: 'Verändert',
      text: 'Dieses PDF trägt unser Siegel, wurde danach aber verändert. Es ist nicht das Dokument, das unterschrieben wurde – verlasse dich nicht auf seinen Inhalt.',
    },
    other_signature: {
      title: 'Nicht von uns versiegelt',
      text: 'Dieses PDF ist signiert, aber nicht mit unserem Siegel.',
    },
    unsealed: {
      title: 'Kein Siegel',
      text: 'Dieses PDF trägt kein Siegel. Es ist keins der Dokumente, die wir nach der Unterschrift versiegeln.',
    },
  } satisfies Record<SealCheckVerdict, { title: string; text: string }>,
  signedBy: (name: string) => `Signiert von: ${name}`,
  match: 'Match',
  document: 'Dokument',
  completedAt: 'Abgeschlossen am',
  seal: 'Siegel',
  signers: 'Unterschriften',
  role: 'Rolle',
  name: 'Name',
  email: 'E-Mail',
  signedAt: 'Unterschrieben am',
  openEnvelope: 'Umschlag öffnen',
  sha256: 'SHA-256 der Datei',
};
