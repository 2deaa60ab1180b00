import type { ReactNode } from 'react';
import { GenerationFlowProvider } from '@/lib/document-generation';
import { GenerationStatus } from './generation-status';
import { type HandOverDocument, useGeneration } from './use-generation';

/** The generation flow for the form below it: progress, retries, and the document handed over. */
export function DocumentGeneration({
  handOverDocument,
  children,
}: {
  handOverDocument: HandOverDocument;
  children: ReactNode;
}) {
  const generation = useGeneration(handOverDocument);
  return (
    <GenerationFlowProvider
      value={{
        running: generation.state.running,
        generate: generation.generate,
        status: <GenerationStatus generation={generation} />,
      }}
    >
      {children}
    </GenerationFlowProvider>
  );
}
