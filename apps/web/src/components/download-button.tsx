import { Button, type ButtonProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/api';
import { texts } from '@/texts';

/** Runs a download; a failure is reported in a notification, in the server's words where it gave any. */
export async function runDownload(download: () => Promise<void>): Promise<void> {
  try {
    await download();
  } catch (error) {
    notifications.show({
      color: 'red',
      message: error instanceof ApiRequestError ? error.message : texts.downloadFailed,
    });
  }
}

export interface DownloadButtonProps extends ButtonProps {
  /** Fetches the file and hands it to the browser. */
  download: () => Promise<void>;
  children: ReactNode;
}

/** A button that downloads a file, busy until the file is there; a second click meanwhile does nothing. */
export function DownloadButton({ download, children, ...buttonProps }: DownloadButtonProps) {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);

  async function handleClick() {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    await runDownload(download);
    running.current = false;
    setBusy(false);
  }

  return (
    <Button variant="default" {...buttonProps} loading={busy} onClick={handleClick}>
      {children}
    </Button>
  );
}
