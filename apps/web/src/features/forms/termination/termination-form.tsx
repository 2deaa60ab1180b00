import {
  type Company,
  documentKeys,
  type PartnerType,
  type ResolvedMatch,
  type TerminationDocument,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { isSelectValid, isTextValid, SelectField, TextField } from '../../../components/fields';
import { useFormValidation } from '../../../components/form';
import { texts } from '../../../texts';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';
import { catalogueOptions, partnerForCompany } from '../options';
import { SignatorySelect } from '../signatory-select';

const labels = texts.forms.labels;

/** Kündigungen: termination letters and termination confirmations (SPEC §2, §5). */
export function TerminationFormPage() {
  return <FormPage form="termination">{(match) => <TerminationForm match={match} />}</FormPage>;
}

export function TerminationForm({ match }: { match: ResolvedMatch }) {
  const [company, setCompany] = useState<string | null>(null);
  const [partner, setPartner] = useState<string | null>(null);
  const [document, setDocument] = useState<string | null>(null);
  const [deadline, setDeadline] = useState<string | null>(null);
  const [signatory, setSignatory] = useState<string | null>(null);
  // DESIGN §9: the position being ended, as the match names it.
  const [position, setPosition] = useState(match.position ?? '');
  // SPEC §5: only a termination has a deadline; a confirmation confirms whichever was given.
  const needsDeadline = document !== 'confirmation';

  const validation = useFormValidation([
    { name: 'company', required: true, valid: isSelectValid(company, true) },
    { name: 'partner', required: true, valid: isSelectValid(partner, true) },
    { name: 'document', required: true, valid: isSelectValid(document, true) },
    ...(needsDeadline ? [{ name: 'deadline', required: true, valid: isSelectValid(deadline, true) }] : []),
    { name: 'signatory', required: true, valid: isSelectValid(signatory, true) },
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
      <SelectField
        label={labels.company}
        options={catalogueOptions('termination', 'company')}
        value={company}
        onChange={(next) => {
          setCompany(next);
          setPartner(partnerForCompany('termination', next, partner));
        }}
        required
        showErrors={showErrors}
      />
      <SelectField
        label={labels.partner}
        options={catalogueOptions('termination', 'partner', { company })}
        value={partner}
        onChange={setPartner}
        required
        showErrors={showErrors}
        serverError={serverError('vertragspartner_type')}
      />
      <SelectField
        label={labels.document}
        options={catalogueOptions('termination', 'document')}
        value={document}
        onChange={setDocument}
        required
        showErrors={showErrors}
      />
      {needsDeadline && (
        <SelectField
          label={labels.deadline}
          options={catalogueOptions('termination', 'deadline')}
          value={deadline}
          onChange={setDeadline}
          required
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
