import type { TemplateVersionStatus } from '@vertragsgenerator/domain';
import { conflict } from '../shared/http-error.js';

/**
 * Publishing a version and reading what it did, as templates (template-versions.ts) and clauses
 * (clauses/clause-library.ts) both do: a record has numbered versions, one of them published; publishing
 * another, or an earlier one again (a rollback), is checked against what the user saw published.
 */

export interface Publication {
  actor: string;
  comment: string;
  /** The version the user saw published; null when they saw none. */
  replaces: number | null;
}

/** The columns of a version row that say who saved it and who published it last. */
export interface PublicationColumns {
  version: number;
  comment: string;
  created_by: string;
  created_at: Date;
  published_at: Date | null;
  published_by: string | null;
  publish_comment: string | null;
}

type Published = Pick<PublicationColumns, 'version' | 'published_at'>;

/** A version's status, derived from the record's published version: never stored twice. */
export function versionStatus(row: Published, publishedVersion: number | null): TemplateVersionStatus {
  if (row.version === publishedVersion) return 'veröffentlicht';
  return row.published_at !== null ? 'ersetzt' : 'Entwurf';
}

/** A version's number, status, comment and publication as the API answers them. */
export function publicationFields(row: PublicationColumns, publishedVersion: number | null) {
  return {
    version: row.version,
    status: versionStatus(row, publishedVersion),
    comment: row.comment,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    publishedAt: row.published_at?.toISOString() ?? null,
    publishedBy: row.published_by,
    publishComment: row.publish_comment,
  };
}

/** Versions saved after the published one and never published: waiting for review. */
export function draftCount(versions: readonly Published[], publishedVersion: number | null): number {
  return versions.filter(
    (version) => version.published_at === null && version.version > (publishedVersion ?? 0),
  ).length;
}

/**
 * Refuses to publish `version`, in words the user can act on: it is published already, someone published
 * another since the user looked, or its check found `problems` (each described in one line).
 */
export function checkPublishable(
  version: number,
  publishedVersion: number | null,
  publication: Publication,
  problems: readonly string[],
): void {
  if (publishedVersion === version) {
    throw conflict(`Version ${version} ist schon die veröffentlichte Version.`);
  }
  if (publishedVersion !== publication.replaces) {
    throw conflict(
      `Inzwischen ist Version ${publishedVersion ?? '–'} veröffentlicht, nicht Version ${publication.replaces ?? '–'}. Bitte die Seite neu laden und den Vergleich erneut ansehen.`,
    );
  }
  if (problems.length > 0) {
    const count = problems.length === 1 ? 'ein Problem' : `${problems.length} Probleme`;
    throw conflict(
      `Version ${version} hat ${count} und kann nicht veröffentlicht werden: ${problems.join(' · ')}`,
    );
  }
}

/** What publishing sets in the version's row. */
export function publishedColumns(publication: Publication) {
  return {
    published_at: new Date(),
    published_by: publication.actor,
    publish_comment: publication.comment,
  };
}

/** The audit entry's old and new value of a publication: the version it replaces, and the one with why. */
export function publicationAuditValues(previous: number | null, version: number, publication: Publication) {
  return {
    oldValue: previous === null ? null : `Version ${previous}`,
    newValue: `Version ${version}: ${publication.comment}`,
  };
}
