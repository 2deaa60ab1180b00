import { Select } from '@mantine/core';
import type { CountersignatureChoice } from '@vertragsgenerator/domain';

/** The choice „ohne Gegenzeichnung“, where the administrators allow it for the document family. */
export const WITHOUT_COUNTERSIGNATURE = 'ohne';

export const countersignatureTexts = {
  label: 'Gegenzeichnung (Firma)',
  description: {
    last: 'Unterschreibt für die Firma als Letzte oder Letzter, nach allen anderen Unterzeichnern.',
    first: 'Unterschreibt für die Firma als Erste oder Erster; danach erhalten die anderen den Vertrag.',
  },
  placeholder: 'Bitte wählen',
  without: 'Ohne Gegenzeichnung (das Siegel steht für die Firma)',
  required: 'Bitte wähle, wer für die Firma gegenzeichnet.',
};

/** The request's `countersignatory` from the choice; undefined where the server offers none (DocuSign). */
export function countersignatoryOf(
  setting: CountersignatureChoice | undefined,
  choice: string | null,
): string | null | undefined {
  if (!setting) return undefined;
  return choice === WITHOUT_COUNTERSIGNATURE ? null : choice;
}

/** The first choice: without, where that is allowed; else nobody yet, so the sender picks on purpose. */
export function initialCountersignatory(setting: CountersignatureChoice | undefined): string | null {
  return setting?.withoutAllowed ? WITHOUT_COUNTERSIGNATURE : null;
}

/** The company's signatory who countersigns (last, or first where the template says so), chosen among the signatories of its company. */
export function CountersignatorySelect({
  setting,
  value,
  onChange,
  error,
}: {
  setting: NonNullable<CountersignatureChoice | undefined>;
  value: string | null;
  onChange: (value: string | null) => void;
  error: string | undefined;
}) {
  const data = [
    ...setting.options.map((person) => ({ value: person.id, label: `${person.name} – ${person.function}` })),
    ...(setting.withoutAllowed
      ? [{ value: WITHOUT_COUNTERSIGNATURE, label: countersignatureTexts.without }]
      : []),
  ];
  return (
    <Select
      label={countersignatureTexts.label}
      description={countersignatureTexts.description[setting.position]}
      placeholder={countersignatureTexts.placeholder}
      required={!setting.withoutAllowed}
      data={data}
      value={value}
      onChange={onChange}
      allowDeselect={false}
      error={error}
      maw={520}
    />
  );
}
