import { type Company, documentKeys, type ResolvedMatch } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { isNumberValid, NumberField } from '@/components/fields';
import { useFormValidation } from '@/components/form';
import { SignatorySelect } from '@/components/signatory-select';
import { texts } from '@/texts';
import { CatalogueSelect, requiredSelectRules } from '../catalogue-select';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';

const labels = texts.forms.labels;

/** Upper bounds of the offered volume, as the server accepts them. */
const MAX_PROJECT_HOURS = 100_000;
const MAX_PROJECT_DAYS = 10_000;

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
      <NumberField
        label={labels.projectHours}
        value={projectHours}
        onChange={setProjectHours}
        min={0}
        max={MAX_PROJECT_HOURS}
        required
        showErrors={showErrors}
        serverError={serverError('projectHours')}
      />
      <NumberField
        label={labels.projectDays}
        value={projectDays}
        onChange={setProjectDays}
        min={0}
        max={MAX_PROJECT_DAYS}
        required
        showErrors={showErrors}
        serverError={serverError('projectDays')}
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
