import { SectionLoader } from '@/components/section-loader';
import { SuperdocFrame } from '@/components/superdoc-frame';
import { useSuperdocOpening } from '@/components/use-superdoc-opening';
import { loadSuggestingEditor } from './load-suggesting-editor';
import type { SuggestingEditor } from './suggesting-editor';
import type { ReviewTexts } from './texts';

export interface SuggestingFrameProps {
  docx: Blob;
  user: { name: string; email: string };
  texts: ReviewTexts;
  height: string;
  /** The editor once it shows the document, and null again when it is gone. */
  onEditor: (editor: SuggestingEditor | null) => void;
  onChange: () => void;
  onFailed: () => void;
}

/**
 * superdoc in suggesting mode in the frame the staff editor uses (components/superdoc-frame.tsx): the
 * light first view shows the contract again at once, and superdoc takes its place once it has opened it.
 */
export function SuggestingFrame({
  docx,
  user,
  texts,
  height,
  onEditor,
  onChange,
  onFailed,
}: SuggestingFrameProps) {
  const { name, email } = user;
  const { container, ready, firstViewDone } = useSuperdocOpening<SuggestingEditor>({
    docx,
    open: async (element, changed) =>
      (await loadSuggestingEditor()).openSuggestingEditor(element, docx, {
        user: { name, email },
        onChange: changed,
      }),
    onEditor,
    onChange,
    onFailed,
    failure: 'Opening the DOCX for suggestions failed',
    reopenOn: [name, email],
  });

  return (
    <SuperdocFrame
      containerRef={container}
      height={height}
      label={texts.editorLabel}
      docx={docx}
      ready={ready}
      loader={<SectionLoader height={height} label={texts.editorLoading} />}
      firstViewNotice={texts.editorFirstView}
      onShown={() => {}}
      onFirstViewDone={firstViewDone}
    />
  );
}
