import { Alert, FileInput, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { SEAL_CHECK_MAX_BYTES } from '@vertragsgenerator/domain';
import { type DragEvent, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { checkPdf } from './api';
import { SealCheckResult } from './seal-check-result';
import { sealCheckTexts as t } from './texts';

/**
 * /pruefen — PDF prüfen (docs/architecture.md#signing): a PDF chosen or dropped here is checked by the
 * server, which knows every sealed PDF by its SHA-256 and checks the seal's signature. A file over the limit
 * is refused here, before it is sent.
 */
export function SealCheckPage() {
  const [file, setFile] = useState<File | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const [dragging, setDragging] = useState(false);
  const check = useMutation({ mutationFn: checkPdf });

  function choose(chosen: File | null) {
    setFile(chosen);
    check.reset();
    setTooLarge(false);
    if (!chosen) return;
    if (chosen.size > SEAL_CHECK_MAX_BYTES) setTooLarge(true);
    else check.mutate(chosen);
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0] ?? null);
  }

  return (
    <Stack maw={900}>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{t.intro}</Text>
      </div>
      <Paper
        withBorder
        p="lg"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          ...(dragging ? { borderColor: 'var(--mantine-color-blue-6)' } : {}),
        }}
      >
        <Stack gap="xs">
          <FileInput
            label={t.file}
            description={t.fileDescription}
            accept="application/pdf,.pdf"
            value={file}
            onChange={choose}
            clearable
            clearButtonProps={{ 'aria-label': t.clear }}
            // The label names the button for browsers; checkers that look at every form field also want
            // a name on the button itself and on the hidden file input behind it (HTML_CodeSniffer F68, H91).
            aria-label={t.file}
            fileInputProps={{ 'aria-label': t.file }}
            error={tooLarge ? t.tooLarge : undefined}
          />
          <Text size="sm" c="dimmed">
            {t.drop}
          </Text>
        </Stack>
      </Paper>
      <div aria-live="polite">
        {check.isPending && (
          <Stack align="flex-start" gap={4}>
            <Loader size="sm" aria-hidden />
            <Text size="sm">{t.checking}</Text>
          </Stack>
        )}
        {check.isError && <Alert color="red">{errorMessage(check.error)}</Alert>}
        {check.data && file && <SealCheckResult result={check.data} fileName={file.name} />}
      </div>
    </Stack>
  );
}
