import { type Company, documentKeys, type ResolvedMatch } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { OfferVolumeFields } from '@/components/document-value-fields';
import { isNumberValid } from '@/components/fields';
import { useFormValidation } from '@/components/form';
import { SignatorySelect } from '@/components/signatory-select';
import { texts } from '@/texts';
import { CatalogueSelect, requiredSelectRules } from '../catalogue-select';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';

const _labels = texts.forms.labels;

/** Angebotserstellung: offers, from companies wm and we only. */
export function OfferFormPage() {
  return <FormPage form="offer">{(match) => <OfferForm match={match} />}</FormPage>;
}

export function OfferForm({ match }: { match: ResolvedMatch }) {
  const [company, setCompany] = useState<string | null>(null);
  const [projectHours, setProjectHours] = useState<number | null>(null);
  const [projectDays, setProjectDays] = useState<number | null>(null);
  const [signatory, setSignatory] = useState<string | null>(null);
  const validation = useFormValidation([
    ...requiredSelectRules({ company, signatory }),
    { name: 'projectHours', required: true, valid: isNumberValid(projectHours, true) },
    { name: 'projectDays', required: true, valid: isNumberValid(projectDays, true) },
  ]);
  const { showErrors, serverError } = validation;
  const docId = company ? documentKeys.offer({ company: company as Company }) : null;

  return (
    <DocumentForm
      matchId={match.matchId}
      docId={docId}
      target="offer"
      validation={validation}
      // An offer always goes to the customer.
      dataList={() => ({ projectHours, projectDays, selectedPerson: signatory, vertragspartner_type: 'k' })}
    >
      <CatalogueSelect
        form="offer"
        param="company"
        value={company}
        onChange={setCompany}
        showErrors={showErrors}
      />
      <OfferVolumeFields
        hours={[projectHours, setProjectHours]}
        days={[projectDays, setProjectDays]}
        showErrors={showErrors}
        serverError={serverError}
      />
      <SignatorySelect
        value={signatory}
        onChange={setSignatory}
        showErrors={showErrors}
        serverError={serverError('selectedPerson')}
      />
    </DocumentForm>
  );
}
