import { join } from 'node:path';
import { catalogueEntry, type DataList, type ResolvedMatch } from '@vertragsgenerator/domain';
import { loadConfig } from '../config/config.js';
import { loadCompanyData } from '../templates/companies.js';
import { richestDemoMatch, sampleDataList } from '../templates/samples.js';

const { configDir } = loadConfig({}, '0');
const companyData = await loadCompanyData(configDir);

/** The demo match that fills the most fields, as a fresh server with demo data knows it. */
export const demoMatch: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));

/** A complete dataList of the catalogue key for the demo match, as the key's form would send it. */
export function demoDataList(key: string): DataList {
  const entry = catalogueEntry(key);
  if (!entry) throw new Error(`no catalogue entry ${key}`);
  return sampleDataList(entry, demoMatch, companyData.signatories);
}
