import {
  type AgreementType,
  type Company,
  documentKeys,
  type PartnerType,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { isSelectValid, SelectField } from '../../../components/fields';
import { useFormValidation } from '../../../components/form';
import { texts } from '../../../texts';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';
import { catalogueOptions, partnerForCompany } from '../options';

const labels = texts.forms.labels;

/** Zusatzvereinbarungen (SPEC §2). */
export function AgreementFormPage() {
  return <FormPage form="agreement">{(match) => <AgreementForm match={match} />}</FormPage>;
}

export function AgreementForm({ match }: { match: ResolvedMatch }) {
  const [agreement, setAgreement] = useState<string | null>(null);
  const [company, setCompany] = useState<string | null>(null);
  const [partner, setPartner] = useState<string | null>(null);
  const validation = useFormValidation([
    { name: 'agreement', required: true, valid: isSelectValid(agreement, true) },
    { name: 'company', required: true, valid: isSelectValid(company, true) },
    { name: 'partner', required: true, valid: isSelectValid(partner, true) },
  ]);
  const { showErrors, serverError } = validation;

  const docId =
    agreement && company && partner
      ? documentKeys.agreement({
          agreement: agreement as AgreementType,
          company: company as Company,
          partner: partner as PartnerType,
        })
      : null;

  return (
    <DocumentForm
      matchId={match.matchId}
      docId={docId}
      target="docx"
      validation={validation}
      dataList={() => ({ vertragspartner_type: partner })}
    >
      <SelectField
        label={labels.agreement}
        options={catalogueOptions('agreement', 'agreement')}
        value={agreement}
        onChange={setAgreement}
        required
        showErrors={showErrors}
      />
      <SelectField
        label={labels.company}
        options={catalogueOptions('agreement', 'company')}
        value={company}
        onChange={(next) => {
          setCompany(next);
          setPartner(partnerForCompany('agreement', next, partner));
        }}
        required
        showErrors={showErrors}
      />
      <SelectField
        label={labels.partner}
        options={catalogueOptions('agreement', 'partner', { company })}
        value={partner}
        onChange={setPartner}
        required
        showErrors={showErrors}
        serverError={serverError('vertragspartner_type')}
      />
    </DocumentForm>
  );
}
