import { Button, Text } from '@mantine/core';
import type { TemplateDetail } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { VersionTable as Versions } from '@/components/version-library';
import { downloadFile } from '@/lib/download';
import { versionFile } from './api';
import { templateTexts } from './texts';

const t = templateTexts.template;

/** Every version of a template, newest first, each to look at and to download. */
export function VersionTable({
  template,
  selected,
  onSelect,
}: {
  template: TemplateDetail;
  selected: number | undefined;
  onSelect: (version: number) => void;
}) {
  const [downloadFailed, setDownloadFailed] = useState(false);
  async function download(version: number) {
    setDownloadFailed(false);
    try {
      downloadFile(
        await versionFile(template.name, version),
        template.name.replace(/\.docx$/, `-v${version}.docx`),
      );
    } catch {
      setDownloadFailed(true);
    }
  }

  return (
    <Versions
      versions={template.versions}
      selected={selected}
      onSelect={onSelect}
      createdLabel={t.uploaded}
      moreActions={({ version }) => (
        <Button
          size="xs"
          variant="default"
          onClick={() => void download(version)}
          aria-label={t.downloadLabel(version)}
        >
          {t.download}
        </Button>
      )}
    >
      <div aria-live="polite">
        {downloadFailed && (
          <Text c="red.8" size="sm">
            {t.downloadFailed}
          </Text>
        )}
      </div>
    </Versions>
  );
}
