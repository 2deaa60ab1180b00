import type { FormName } from '@vertragsgenerator/domain';
import type { ComponentType } from 'react';
import { AgreementFormPage } from './agreement/agreement-form';
import { DocusignFormPage } from './docusign/docusign-form';
import { DocxFormPage } from './docx/docx-form';
import { OfferFormPage } from './offer/offer-form';
import { TerminationFormPage } from './termination/termination-form';

/** The page of each document form, by form name (routes: `FORM_ROUTES`). */
export const FORM_PAGES: Record<FormName, ComponentType> = {
  docusign: DocusignFormPage,
  docx: DocxFormPage,
  termination: TerminationFormPage,
  offer: OfferFormPage,
  agreement: AgreementFormPage,
};
