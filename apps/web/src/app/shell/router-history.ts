import { FORM_ROUTES, type FormName } from '@vertragsgenerator/domain';
import { CLAUSE_PATHS, CLAUSES_PAGE_NAME } from '@/features/clauses/paths';
import { PATHS } from '@/lib/paths';
import { SESSION_STORAGE_KEYS } from '@/lib/storage';
import { texts } from '@/texts';

/**
 * The breadcrumb trail of visited pages (docs/architecture.md#screens), kept in session storage under
 * `router-history`. Only named pages are recorded, which leaves out /login, /auth/callback and unknown paths.
 */
const PAGE_NAMES: ReadonlyMap<string, string> = new Map([
  [PATHS.start, texts.pageNames.start],
  [PATHS.format, texts.pageNames.format],
  [PATHS.administration, texts.pageNames.administration],
  [PATHS.signatureOverview, texts.pageNames.signatureOverview],
  [PATHS.contracts, texts.pageNames.contracts],
  [PATHS.batches, texts.pageNames.batches],
  [PATHS.approvals, texts.pageNames.approvals],
  [PATHS.figures, texts.pageNames.figures],
  [PATHS.sealCheck, texts.pageNames.sealCheck],
  [PATHS.templates, texts.pageNames.templates],
  [PATHS.placeholders, texts.pageNames.placeholders],
  [CLAUSE_PATHS.clauses, CLAUSES_PAGE_NAME],
  ...(Object.entries(FORM_ROUTES) as [FormName, string][]).map(
    ([form, path]) => [path, texts.forms[form]] as const,
  ),
]);

export function pageName(path: string): string | undefined {
  return PAGE_NAMES.get(path);
}

/** Appends a visit; revisiting a page already in the trail trims the trail back to it, so it never loops. */
export function recordVisit(history: readonly string[], path: string): string[] {
  if (!PAGE_NAMES.has(path)) return [...history];
  return history.includes(path) ? trimTo(history, path) : [...history, path];
}

/** The trail up to and including `path`; unchanged when `path` is not in it. */
export function trimTo(history: readonly string[], path: string): string[] {
  const index = history.indexOf(path);
  return index === -1 ? [...history] : history.slice(0, index + 1);
}

export function readHistory(): string[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEYS.routerHistory) ?? '[]');
    return Array.isArray(stored)
      ? stored.filter((path): path is string => typeof path === 'string' && PAGE_NAMES.has(path))
      : [];
  } catch {
    return [];
  }
}

export function writeHistory(history: readonly string[]): void {
  sessionStorage.setItem(SESSION_STORAGE_KEYS.routerHistory, JSON.stringify(history));
}
