import type { FormName } from '@vertragsgenerator/domain';
import { FORM_PAGES } from '@/features/forms';
import { DocumentGeneration } from '@/features/generation';
import { useDocumentHandOver } from './document-hand-over';

/**
 * A document form's page as the app composes it: the form, with a generation flow of its own above it
 * that hands the document to the configured editor. Loaded with the forms, not by /login or /start.
 */
export function DocumentFormPage({ form }: { form: FormName }) {
  const Page = FORM_PAGES[form];
  const handOverDocument = useDocumentHandOver();
  return (
    <DocumentGeneration handOverDocument={handOverDocument}>
      <Page />
    </DocumentGeneration>
  );
}
