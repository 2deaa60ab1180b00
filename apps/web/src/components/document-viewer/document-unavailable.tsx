import { DownloadInstead } from '@/components/download-instead';
import { texts } from '@/texts';

/** What the viewer and the reader show when the document cannot be shown: the file to download instead. */
export function DocumentUnavailable({ onDownload }: { onDownload: () => void }) {
  return (
    <DownloadInstead
      title={texts.documentViewer.failedTitle}
      text={texts.documentViewer.failed}
      buttonLabel={texts.documentViewer.download}
      onDownload={onDownload}
    />
  );
}
