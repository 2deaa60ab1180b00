import {
  type AgreementType,
  type Company,
  documentKeys,
  type PartnerType,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { useFormValidation } from '@/components/form';
import { CatalogueSelect, requiredSelectRules } from '../catalogue-select';
import { useCompanyAndPartner } from '../company-and-partner';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';

/** Zusatzvereinbarungen: agreements added to a contract. */
export function AgreementFormPage() {
  return <FormPage form="agreement">{(match) => <AgreementForm match={match} />}</FormPage>;
}

export function AgreementForm({ match }: { match: ResolvedMatch }) {
  const [agreement, setAgreement] = useState<string | null>(null);
  const { company, setCompany, partner, setPartner } = useCompanyAndPartner('agreement');
  const validation = useFormValidation(requiredSelectRules({ agreement, company, partner }));
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
      <CatalogueSelect
        form="agreement"
        param="agreement"
        value={agreement}
        onChange={setAgreement}
        showErrors={showErrors}
      />
      <CatalogueSelect
        form="agreement"
        param="company"
        value={company}
        onChange={setCompany}
        showErrors={showErrors}
      />
      <CatalogueSelect
        form="agreement"
        param="partner"
        where={{ company }}
        value={partner}
        onChange={setPartner}
        showErrors={showErrors}
        serverError={serverError('vertragspartner_type')}
      />
    </DocumentForm>
  );
}
