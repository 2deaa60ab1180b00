import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { jsonResponse, type stubApi } from './utils';

/** The pages of a library of versioned texts (templates, clauses) as their tests look at them. */

/** A version's fields as the server answers them: saved by legal staff, without a comment, never published. */
export const savedVersion = {
  comment: '',
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-24T09:00:00Z',
  publishedAt: null,
  publishedBy: null,
  publishComment: null,
  problems: [],
};

/** The text of each cell of each row of `table` below its header. */
export function rowTexts(table: HTMLElement): (string | null)[][] {
  return bodyRows(table).map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  );
}

/** The rows of `table` below its header. */
export function bodyRows(table: HTMLElement): HTMLElement[] {
  return within(table).getAllByRole('row').slice(1);
}

/** The rows of the table `Versionen`, newest version first. */
export const versionRows = () => bodyRows(screen.getByRole('table', { name: 'Versionen' }));

/** The version under review has problems: it cannot be published, and no button offers it. */
export function expectNotPublishable(): void {
  expect(screen.getByText('Erst eine Version ohne Probleme kann veröffentlicht werden.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Veröffentlichen' })).not.toBeInTheDocument();
}

/** Types the comment for the audit log into the publish dialog and confirms. */
export async function confirmPublication(dialog: HTMLElement, comment: string): Promise<void> {
  await userEvent.type(within(dialog).getByRole('textbox', { name: /Kommentar/ }), comment);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Veröffentlichen' }));
}

/**
 * Publishes `version` in its dialog, which says what it replaces: without a comment the dialog asks for
 * one and sends nothing; with one, `publish` (`POST …/publish`) gets it with the version seen published.
 */
export async function publishWithComment(
  api: ReturnType<typeof stubApi>,
  publish: string,
  version: number,
  replaces: number,
): Promise<void> {
  await userEvent.click(screen.getByRole('button', { name: 'Veröffentlichen' }));
  const dialog = await screen.findByRole('dialog', { name: `Version ${version} veröffentlichen` });
  expect(dialog).toHaveTextContent(`Version ${version} ersetzt Version ${replaces}`);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Veröffentlichen' }));
  expect(await within(dialog).findByText('Bitte kurz beschreiben, was sich ändert.')).toBeInTheDocument();
  expect(api.callsTo(publish)).toHaveLength(0);
  await confirmPublication(dialog, 'Freigegeben');
  await waitFor(() => expect(api.callsTo(publish)[0]?.body).toEqual({ comment: 'Freigegeben', replaces }));
  expect(await screen.findByText(`Version ${version} ist veröffentlicht.`)).toBeInTheDocument();
}

const STALE = 'Inzwischen ist Version 4 veröffentlicht, nicht Version 1.';
/** The server's answer to a publication when someone else published meanwhile. */
export const stalePublication = () => jsonResponse(409, { error: 'conflict', message: STALE });

/** Publishing while someone else published meanwhile: the dialog says so in the server's words. */
export async function expectStalePublicationRefused(): Promise<void> {
  await userEvent.click(await screen.findByRole('button', { name: 'Veröffentlichen' }));
  const dialog = await screen.findByRole('dialog');
  await confirmPublication(dialog, 'Freigegeben');
  expect(await within(dialog).findByText(STALE)).toBeInTheDocument();
}
