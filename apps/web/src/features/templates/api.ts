import { queryOptions } from '@tanstack/react-query';
import {
  DOCX_MIME_TYPE,
  type PublishTemplate,
  placeholderDictionarySchema,
  type TemplateDetail,
  type TemplateMark,
  type TemplateMarks,
  type TemplateVersion,
  templateComparisonSchema,
  templateDetailSchema,
  templateListSchema,
  templateMarksSchema,
  templateTrialSchema,
  templateVersionSchema,
} from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { readChosenFile } from '@/lib/chosen-file';

export const placeholdersQueryOptions = queryOptions({
  queryKey: ['template-placeholders'],
  queryFn: ({ signal }) =>
    apiJson('/backend/templates/placeholders', placeholderDictionarySchema, { signal }),
  staleTime: 5 * 60_000,
});

const templatePath = (name: string) => `/backend/templates/${encodeURIComponent(name)}`;
const versionPath = (name: string, version: number) => `${templatePath(name)}/versions/${version}`;

/** The start of every template query's key: invalidating it reloads the list and each template. */
export const TEMPLATES_QUERY_KEY = ['templates'] as const;

export const templateListQueryOptions = queryOptions({
  queryKey: TEMPLATES_QUERY_KEY,
  queryFn: ({ signal }) => apiJson('/backend/templates', templateListSchema, { signal }),
});

export const templateQueryOptions = (name: string) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, name],
    queryFn: ({ signal }) => apiJson(templatePath(name), templateDetailSchema, { signal }),
  });

/** The version's text against the published one; a version never changes, but what is published may. */
export const comparisonQueryOptions = (name: string, version: number, published: number | null) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, name, 'comparison', version, published],
    queryFn: ({ signal }) =>
      apiJson(`${versionPath(name, version)}/comparison`, templateComparisonSchema, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** A version's paragraphs and those marked „Änderung braucht Freigabe“. */
export const marksQueryOptions = (name: string, version: number) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, name, 'marks', version],
    queryFn: ({ signal }) => apiJson(`${versionPath(name, version)}/marks`, templateMarksSchema, { signal }),
  });

/** Replaces the version's marks with `marks`, the whole new list; answers as the query. */
export function changeMarks(name: string, version: number, marks: TemplateMark[]): Promise<TemplateMarks> {
  return apiJson(`${versionPath(name, version)}/marks`, templateMarksSchema, {
    method: 'PUT',
    body: { marks },
  });
}

/** `matchId` empty: the server's default deal (the demo match with the most values). */
export const trialQueryOptions = (name: string, version: number, matchId: string) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, name, 'trial', version, matchId],
    queryFn: ({ signal }) =>
      apiJson(`${versionPath(name, version)}/trial${matchQuery(matchId)}`, templateTrialSchema, { signal }),
    // The deal may change in the CRM: asked again when the user tries again, not kept for long.
    staleTime: 30_000,
  });

const matchQuery = (matchId: string) => (matchId ? `?matchId=${encodeURIComponent(matchId)}` : '');

/** The file goes as a DOCX whatever type the browser guessed: the server looks at its bytes. */
/**
 * A new version of the template, read afresh from the disk; rejects with `UnreadableFileError` when the
 * chosen file can no longer be read.
 */
export async function uploadVersion(name: string, file: File, comment: string): Promise<TemplateVersion> {
  const bytes = await readChosenFile(file);
  return apiJson(
    `${templatePath(name)}/versions?comment=${encodeURIComponent(comment)}`,
    templateVersionSchema,
    {
      method: 'POST',
      // Sent as DOCX whatever type the browser guessed for the file: the server takes only DOCX.
      body: new Blob([bytes], { type: DOCX_MIME_TYPE }),
    },
  );
}

export function publishVersion(
  name: string,
  version: number,
  publication: PublishTemplate,
): Promise<TemplateDetail> {
  return apiJson(`${versionPath(name, version)}/publish`, templateDetailSchema, {
    method: 'POST',
    body: publication,
  });
}

export async function versionFile(name: string, version: number, signal?: AbortSignal): Promise<Blob> {
  return (await apiFetch(`${versionPath(name, version)}/file`, signal ? { signal } : {})).blob();
}

export async function trialFile(
  name: string,
  version: number,
  key: string,
  matchId: string,
  signal?: AbortSignal,
): Promise<Blob> {
  const path = `${versionPath(name, version)}/trial/${encodeURIComponent(key)}${matchQuery(matchId)}`;
  return (await apiFetch(path, signal ? { signal } : {})).blob();
}
