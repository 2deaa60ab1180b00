import {
  type Company,
  type ContractType,
  documentKeys,
  type Language,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { useFormValidation } from '@/components/form';
import { CatalogueSelect, requiredSelectRules } from '../catalogue-select';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';

/** DOCX-Kunde-Verträge: the editable customer contract. */
export function DocxFormPage() {
  return <FormPage form="docx">{(match) => <DocxForm match={match} />}</FormPage>;
}

export function DocxForm({ match }: { match: ResolvedMatch }) {
  const [language, setLanguage] = useState<string | null>(null);
  const [company, setCompany] = useState<string | null>(null);
  const [contract, setContract] = useState<string | null>(null);
  const validation = useFormValidation(requiredSelectRules({ language, company, contract }));
  const { showErrors } = validation;

  const docId =
    language && company && contract
      ? documentKeys.docx({
          language: language as Language,
          company: company as Company,
          contract: contract as ContractType,
        })
      : null;

  return (
    <DocumentForm
      matchId={match.matchId}
      docId={docId}
      target="docx"
      validation={validation}
      // The customer contract is always with the customer.
      dataList={() => ({ vertragspartner_type: 'k' })}
    >
      <CatalogueSelect
        form="docx"
        param="language"
        value={language}
        onChange={setLanguage}
        showErrors={showErrors}
      />
      <CatalogueSelect
        form="docx"
        param="company"
        value={company}
        onChange={setCompany}
        showErrors={showErrors}
      />
      <CatalogueSelect
        form="docx"
        param="contract"
        value={contract}
        onChange={setContract}
        showErrors={showErrors}
      />
    </DocumentForm>
  );
}
