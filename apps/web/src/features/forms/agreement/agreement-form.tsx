import {
  type AgreementType,
  type Company,
  documentKeys,
  type Language,
  type PartnerType,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { ExtensionRateFields } from '@/components/document-value-fields';
import { TextField } from '@/components/fields';
import { useFormValidation } from '@/components/form';
import { texts } from '@/texts';
import { CatalogueSelect, requiredSelectRules } from '../catalogue-select';
import { useCompanyAndPartner } from '../company-and-partner';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';

const labels = texts.forms.labels;

/** Zusatzvereinbarungen: agreements added to a contract, among them the extension (Verlängerung). */
export function AgreementFormPage() {
  return <FormPage form="agreement">{(match) => <AgreementForm match={match} />}</FormPage>;
}

export function AgreementForm({ match }: { match: ResolvedMatch }) {
  const [agreement, setAgreement] = useState<string | null>(null);
  const [language, setLanguage] = useState<string | null>(null);
  const [newEnd, setNewEnd] = useState('');
  const [newRateRemote, setNewRateRemote] = useState<number | null>(null);
  const [newRateOnsite, setNewRateOnsite] = useState<number | null>(null);
  const [newHours, setNewHours] = useState<number | null>(null);
  const { company, setCompany, partner, setPartner } = useCompanyAndPartner('agreement');
  const extension = agreement === 'extension';
  // Only an extension has more than one language; every other agreement is German.
  const chosenLanguage = extension ? language : 'de';
  const validation = useFormValidation([
    ...requiredSelectRules({ agreement, company, partner, ...(extension ? { language } : {}) }),
    ...(extension ? [{ name: 'neuesEnde', required: true, valid: newEnd !== '' }] : []),
  ]);
  const { showErrors, serverError } = validation;

  const docId =
    agreement && company && partner && chosenLanguage
      ? documentKeys.agreement({
          agreement: agreement as AgreementType,
          company: company as Company,
          partner: partner as PartnerType,
          language: chosenLanguage as Language,
        })
      : null;

  return (
    <DocumentForm
      matchId={match.matchId}
      docId={docId}
      target="docx"
      validation={validation}
      dataList={() => ({
        vertragspartner_type: partner,
        // An empty field is left out: that value stays as agreed.
        ...(extension
          ? {
              neuesEnde: newEnd,
              neuerSatzRemote: newRateRemote ?? undefined,
              neuerSatzOnsite: newRateOnsite ?? undefined,
              neueStundenProWoche: newHours ?? undefined,
            }
          : {}),
      })}
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
      {extension && (
        <CatalogueSelect
          form="agreement"
          param="language"
          where={{ agreement, company }}
          value={language}
          onChange={setLanguage}
          showErrors={showErrors}
        />
      )}
      <CatalogueSelect
        form="agreement"
        param="partner"
        where={{ company }}
        value={partner}
        onChange={setPartner}
        showErrors={showErrors}
        serverError={serverError('vertragspartner_type')}
      />
      {extension && (
        <>
          <TextField
            label={labels.newEnd}
            type="date"
            value={newEnd}
            onChange={setNewEnd}
            required
            showErrors={showErrors}
            serverError={serverError('neuesEnde')}
          />
          <ExtensionRateFields
            remote={[newRateRemote, setNewRateRemote]}
            onsite={[newRateOnsite, setNewRateOnsite]}
            hours={[newHours, setNewHours]}
            serverError={serverError}
          />
        </>
      )}
    </DocumentForm>
  );
}
