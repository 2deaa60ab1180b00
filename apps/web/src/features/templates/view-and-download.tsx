import { Button, Group } from '@mantine/core';
import { templateTexts } from './texts';

/**
 * The two actions of a row that stands for a document (a version, a trial document): look at it in
 * the page, the button filled while it is the one shown, and download it. The labels name the row.
 */
export function ViewAndDownload({
  viewing,
  viewText,
  viewLabel,
  onView,
  downloadLabel,
  onDownload,
}: {
  viewing: boolean;
  viewText: string;
  viewLabel: string;
  onView: () => void;
  downloadLabel: string;
  onDownload: () => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant={viewing ? 'filled' : 'default'} onClick={onView} aria-label={viewLabel}>
        {viewText}
      </Button>
      <Button size="xs" variant="default" onClick={onDownload} aria-label={downloadLabel}>
        {templateTexts.template.download}
      </Button>
    </Group>
  );
}
