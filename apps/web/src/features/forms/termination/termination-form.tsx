import {
  type Company,
  documentKeys,
  type PartnerType,
  type ResolvedMatch,
  type TerminationDocument,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { isTextValid, TextField } from '@/components/fields';
import { useFormValidation } from '@/components/form';
import { SignatorySelect } from '@/components/signatory-select';
import { texts } from '@/texts';
import { CatalogueSelect, requiredSelectRules } from '../catalogue-select';
import { useCompanyAndPartner } from '../company-and-partner';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';

const labels = texts.forms.labels;

/** Kündigungen: termination letters and termination confirmations. */
export function TerminationFormPage() {
  return <FormPage form="termination">{(match) => <TerminationForm match={match} />}</FormPage>;
}

export function TerminationForm({ match }: { match: ResolvedMatch }) {
  const { company, setCompany, partner, setPartner } = useCompanyAndPartner('termination');
  const [document, setDocument] = useState<string | null>(null);
  const [deadline, setDeadline] = useState<string | null>(null);
  const [signatory, setSignatory] = useState<string | null>(null);
  // The position being ended, as the match names it.
  const [position, setPosition] = useState(match.position ?? '');
  // Only a termination has a deadline; a confirmation confirms whichever was given.
  const needsDeadline = document !== 'confirmation';

  const validation = useFormValidation([
    ...requiredSelectRules({ company, partner, document, ...(needsDeadline ? { deadline } : {}), signatory }),
    { name: 'position', required: true, valid: isTextValid(position, true) },
  ]);
  const { showErrors, serverError } = validation;

  const docId =
    company && partner && document && (deadline || !needsDeadline)
      ? documentKeys.termination({
          company: company as Company,
          partner: partner as PartnerType,
          document: document as TerminationDocument,
          ...(needsDeadline && deadline ? { deadline } : {}),
        })
      : null;

  return (
    <DocumentForm
      matchId={match.matchId}
      docId={docId}
      target="docx"
      validation={validation}
      dataList={() => ({ selectedPerson: signatory, position, vertragspartner_type: partner })}
    >
      <CatalogueSelect
        form="termination"
        param="company"
        value={company}
        onChange={setCompany}
        showErrors={showErrors}
      />
      <CatalogueSelect
        form="termination"
        param="partner"
        where={{ company }}
        value={partner}
        onChange={setPartner}
        showErrors={showErrors}
        serverError={serverError('vertragspartner_type')}
      />
      <CatalogueSelect
        form="termination"
        param="document"
        value={document}
        onChange={setDocument}
        showErrors={showErrors}
      />
      {needsDeadline && (
        <CatalogueSelect
          form="termination"
          param="deadline"
          value={deadline}
          onChange={setDeadline}
          showErrors={showErrors}
        />
      )}
      <SignatorySelect
        value={signatory}
        onChange={setSignatory}
        showErrors={showErrors}
        serverError={serverError('selectedPerson')}
      />
      <TextField
        label={labels.position}
        value={position}
        onChange={setPosition}
        required
        showErrors={showErrors}
        serverError={serverError('position')}
      />
    </DocumentForm>
  );
}
