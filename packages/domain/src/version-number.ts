/** Versions are PostgreSQL integers: a larger number can name no version. */
const MAX_VERSION = 2_147_483_647;

/**
 * The version a path, query or header names, as digits from 1 (a document's or a template's versions
 * are counted from 1); anything else, signs and decimals included, names no version.
 */
export function parseVersionNumber(text: string | null | undefined): number | undefined {
  if (text == null || !/^\d{1,10}$/.test(text)) return undefined;
  const version = Number(text);
  return version >= 1 && version <= MAX_VERSION ? version : undefined;
}
