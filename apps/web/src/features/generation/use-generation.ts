import type { GenerationApprovalRequired } from '@vertragsgenerator/domain';
import { useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/api';
import type { DocumentOrder, GenerationOutcome } from '@/lib/document-generation';
import { openInNewTab } from '@/lib/new-tab';
import { texts } from '@/texts';
import {
  type GeneratedFile,
  type GenerationRequest,
  heldForApproval,
  readGeneratedFile,
  readSignatureUrl,
  sendGenerationRequest,
} from './api';
import { GENERATION_RETRIES, withRetries } from './retry';

/** The progress steps in percent, each with its label in `texts.generation.steps`. */
export type GenerationStep = 20 | 40 | 60 | 80 | 95 | 100;

export interface GenerationState {
  running: boolean;
  step: GenerationStep | null;
  attempt: number;
  error: string | null;
  /** A URL the browser refused to open in a new tab. */
  blockedUrl: string | null;
  /**
   * The document was stored but not handed out: it needs an approval first (the editors that hand out
   * the final file). Nothing went to the editor, Google Drive or the downloads.
   */
  held: GenerationApprovalRequired | null;
}

/**
 * Where a generated DOCX goes (the editor step): the app plugs the editors in here. Answers with a page
 * the browser refused to open in a new tab, for the dialog that offers this tab instead.
 */
export type HandOverDocument = (file: GeneratedFile) => Promise<{ blockedUrl: string | null }>;

const IDLE: GenerationState = {
  running: false,
  step: null,
  attempt: 1,
  error: null,
  blockedUrl: null,
  held: null,
};

export const GENERATION_ATTEMPTS = GENERATION_RETRIES + 1;

/**
 * A 4xx speaks for itself (docs/architecture.md#api-conventions); anything else that survived the
 * retries gets the general alert that no document could be made.
 */
function failureMessage(error: unknown): string {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) return error.message;
  return texts.generation.failed;
}

/** 128 random bits; `crypto.randomUUID` is missing on plain-http intranet hosts, this is not. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function markOpened() {
  performance.mark('generation:opened');
  performance.measure('generation:submit-to-open', 'generation:submit', 'generation:opened');
}

/**
 * The generation flow of every form: progress, retries, the document opened or handed over.
 * A second call while one runs is ignored, so a double click never generates twice.
 */
export function useGeneration(handOverDocument: HandOverDocument) {
  const [state, setState] = useState<GenerationState>(IDLE);
  const running = useRef(false);
  const update = (patch: Partial<GenerationState>) => setState((old) => ({ ...old, ...patch }));

  async function generate(order: DocumentOrder): Promise<GenerationOutcome | null> {
    if (running.current) return null;
    running.current = true;
    const request: GenerationRequest = { ...order, idempotencyKey: newIdempotencyKey() };
    performance.mark('generation:submit');
    setState({ ...IDLE, running: true, step: 20 });
    try {
      const result = await withRetries<{ url: string } | { file: GeneratedFile }>(async (attempt) => {
        update({ attempt, step: 40 });
        const answer = sendGenerationRequest(request);
        update({ step: 60 });
        const response = await answer;
        update({ step: 80 });
        return request.target === 'signature'
          ? { url: await readSignatureUrl(response) }
          : { file: await readGeneratedFile(response) };
      });
      update({ step: 95 });
      const { blockedUrl } =
        'url' in result
          ? { blockedUrl: openInNewTab(result.url) ? null : result.url }
          : await handOverDocument(result.file);
      if (blockedUrl === null) markOpened();
      else update({ blockedUrl });
      update({ step: 100, running: false });
      return { ok: true };
    } catch (error) {
      const held = heldForApproval(error);
      if (held) {
        // Made and stored as ordered: the form has nothing to correct.
        setState({ ...IDLE, held });
        return { ok: true };
      }
      setState({ ...IDLE, error: failureMessage(error) });
      return { ok: false, fields: error instanceof ApiRequestError ? error.fields : {} };
    } finally {
      running.current = false;
    }
  }

  return {
    state,
    generate,
    /** Opens the blocked URL here instead, leaving the form. */
    openBlockedHere() {
      if (state.blockedUrl === null) return;
      markOpened();
      // Opening into this tab is a navigation, which no popup blocker stops.
      window.open(state.blockedUrl, '_self');
    },
    dismissBlocked() {
      update({ blockedUrl: null });
    },
  };
}

export type Generation = ReturnType<typeof useGeneration>;
