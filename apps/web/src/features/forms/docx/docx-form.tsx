import {
  type Company,
  type ContractType,
  documentKeys,
  type Language,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { isSelectValid, SelectField } from '../../../components/fields';
import { useFormValidation } from '../../../components/form';
import { texts } from '../../../texts';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';
import { catalogueOptions } from '../options';

const labels = texts.forms.labels;

/** DOCX-Kunde-Verträge: the editable customer contract (SPEC §2). */
export function DocxFormPage() {
  return <FormPage form="docx">{(match) => <DocxForm match={match} />}</FormPage>;
}

export function DocxForm({ match }: { match: ResolvedMatch }) {
  const [language, setLanguage] = useState<string | null>(null);
  const [company, setCompany] = useState<string | null>(null);
  const [contract, setContract] = useState<string | null>(null);
  const validation = useFormValidation([
    { name: 'language', required: true, valid: isSelectValid(language, true) },
    { name: 'company', required: true, valid: isSelectValid(company, true) },
    { name: 'contract', required: true, valid: isSelectValid(contract, true) },
  ]);
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
      <SelectField
        label={labels.language}
        options={catalogueOptions('docx', 'language')}
        value={language}
        onChange={setLanguage}
        required
        showErrors={showErrors}
      />
      <SelectField
        label={labels.company}
        options={catalogueOptions('docx', 'company')}
        value={company}
        onChange={setCompany}
        required
        showErrors={showErrors}
      />
      <SelectField
        label={labels.contract}
        options={catalogueOptions('docx', 'contract')}
        value={contract}
        onChange={setContract}
        required
        showErrors={showErrors}
      />
    </DocumentForm>
  );
}
