import { createContext, type ReactNode, useContext } from 'react';

/** Which server call makes the document. */
export type GenerationTarget = 'docx' | 'offer' | 'signature';

/** What a document form orders: the server call, the catalogue key, the match and the form's values. */
export interface DocumentOrder {
  target: GenerationTarget;
  docId: string;
  matchId: string;
  dataList: Record<string, unknown>;
}

export type GenerationOutcome =
  | { ok: true }
  /** Refused: the fields the server named, for the form to mark. */
  | { ok: false; fields: Readonly<Record<string, readonly string[]>> };

/**
 * The generation flow of a form page as its form uses it. The forms and the generation feature meet
 * only here: the app puts the generation feature's flow above each form page (app/document-forms.tsx).
 */
export interface GenerationFlow {
  running: boolean;
  /** Null when a generation already runs, so that a double click never generates twice. */
  generate(order: DocumentOrder): Promise<GenerationOutcome | null>;
  /** Progress, the final error and the way out of a blocked new tab. */
  status: ReactNode;
}

const GenerationFlowContext = createContext<GenerationFlow | null>(null);

export const GenerationFlowProvider = GenerationFlowContext.Provider;

export function useGenerationFlow(): GenerationFlow {
  const flow = useContext(GenerationFlowContext);
  if (!flow) throw new Error('useGenerationFlow needs a GenerationFlowProvider');
  return flow;
}
