import { lazy, Suspense } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { type DocumentPanelContext, EditorPage } from '@/features/editor';

// The negotiation comes with its own chunk once the document is there: the editor's tab shows the
// document first (bench/size measures that load) and the panel's code follows.
const NegotiationPanel = lazy(async () => ({
  default: (await import('@/features/reviews')).NegotiationPanel,
}));

function negotiationPanel(context: DocumentPanelContext) {
  return (
    <Suspense fallback={<SectionLoader />}>
      <NegotiationPanel {...context} />
    </Suspense>
  );
}

/**
 * `/dokumente/:documentId` as the app composes it: the built-in editor and the negotiation with the
 * counterparty below it („Verhandlung“), for whoever may open the document — legal, and whoever may
 * generate its key (the server checks both on every call).
 */
export function EditorWithNegotiationPage() {
  return <EditorPage panel={negotiationPanel} />;
}
