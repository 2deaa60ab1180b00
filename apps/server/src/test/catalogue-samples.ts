import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE, resolveMatch } from '@vertragsgenerator/domain';
import { parseMatchFile } from '../matches/import.js';
import { loadCompanyData } from '../templates/companies.js';

const repository = new URL('../../../../', import.meta.url).pathname;

/**
 * What the template tests render: every catalogue entry, the first entry of each template file, the
 * first four demo matches and the letterheads.
 */
export async function catalogueSamples() {
  const companyData = await loadCompanyData(join(repository, 'config'));
  const { valid } = parseMatchFile(readFileSync(join(repository, 'config', 'demo-matches.json'), 'utf8'));
  const matches = valid.slice(0, 4).map(resolveMatch);
  if (matches.length < 4) throw new Error('config/demo-matches.json has fewer than four valid matches');
  const entries = [...CATALOGUE.values()];
  const firstOfTemplate = entries.filter(
    (entry, index) => entries.findIndex((e) => e.template === entry.template) === index,
  );
  return { companyData, matches, entries, firstOfTemplate };
}

/** A template file of the repository's `templates/` folder. */
export const templateFile = (name: string) => readFileSync(join(repository, 'templates', name));
