import { Alert, Button, Group, Stack } from '@mantine/core';
import type { ContractsQuery } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { errorMessage } from '@/lib/api';
import { downloadContractsExport, type ExportFormat } from './api';
import { contractsTexts as t } from './texts';

/**
 * `CSV` and `Excel`: the current view, every page of it, as a file. A view too large for an export
 * (422 `export_too_large`) or any other failure is said below the buttons in the server's words.
 */
export function ContractsExport({ query }: { query: ContractsQuery }) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function download(format: ExportFormat) {
    if (busy) return;
    setBusy(format);
    setFailure(null);
    try {
      await downloadContractsExport(query, format);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="xs" role="group" aria-label={t.export}>
        <Button
          variant="default"
          size="sm"
          loading={busy === 'csv'}
          onClick={() => void download('csv')}
          title={t.exportCsvLabel}
        >
          {t.exportCsv}
        </Button>
        <Button
          variant="default"
          size="sm"
          loading={busy === 'xlsx'}
          onClick={() => void download('xlsx')}
          title={t.exportXlsxLabel}
        >
          {t.exportXlsx}
        </Button>
      </Group>
      {failure && (
        <Alert color="red" title={t.exportFailed} role="alert">
          {failure}
        </Alert>
      )}
    </Stack>
  );
}
