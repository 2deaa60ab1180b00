import { Text } from '@mantine/core';
import { SelectField } from '@/components/fields';
import { useSignatories } from '@/lib/signatories-api';
import { texts } from '@/texts';

export interface SignatorySelectProps {
  value: string | null;
  onChange: (value: string | null) => void;
  showErrors: boolean;
  serverError: string | undefined;
}

/** Who signs an offer or termination, from `GET /backend/signatories`; sends the signatory's id. */
export function SignatorySelect(props: SignatorySelectProps) {
  const signatories = useSignatories();
  const options = (signatories.data ?? []).map((person) => ({
    value: person.id,
    label: `${person.name} (${person.function})`,
  }));
  return (
    <>
      <SelectField label={texts.forms.labels.signatory} options={options} required {...props} />
      {signatories.isError && (
        <Text size="sm" c="red">
          {texts.forms.signatoriesFailed}
        </Text>
      )}
    </>
  );
}
