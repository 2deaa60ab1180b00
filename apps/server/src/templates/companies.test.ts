import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.js';
import { loadCompanyData } from './companies.js';

const { configDir } = loadConfig({}, '0');
const companies = JSON.parse(readFileSync(join(configDir, 'companies.json'), 'utf8'));
const signatories = JSON.parse(readFileSync(join(configDir, 'signatories.json'), 'utf8'));

function configFolder(files: { companies?: unknown; signatories?: unknown }): string {
  const dir = mkdtempSync(join(tmpdir(), 'vg-config-'));
  writeFileSync(join(dir, 'companies.json'), JSON.stringify(files.companies ?? companies));
  writeFileSync(join(dir, 'signatories.json'), JSON.stringify(files.signatories ?? signatories));
  return dir;
}

describe('loadCompanyData', () => {
  it('reads the three companies and the signatories of config/', async () => {
    const data = await loadCompanyData(configDir);
    expect(Object.keys(data.companies).sort()).toEqual(['we', 'wm', 'wp']);
    expect(data.companies.wm.name).toMatch(/Consulting GmbH$/);
    expect(data.signatories).toHaveLength(3);
  });

  it.each([
    [
      'a missing field',
      { companies: { ...companies, we: { ...companies.we, vatId: undefined } } },
      /companies\.json:\n {2}we\.vatId: /,
    ],
    [
      'a missing company',
      { companies: { wm: companies.wm, we: companies.we } },
      /companies\.json:\n {2}wp: /,
    ],
    [
      'a code that is not its key',
      { companies: { ...companies, wp: { ...companies.wp, code: 'we' } } },
      /wp\.code: must be "wp"/,
    ],
    [
      'a signatory without e-mail',
      { signatories: [{ ...signatories[0], email: 'kein' }] },
      /signatories\.json:\n {2}0\.email: /,
    ],
    [
      'a signatory id used twice',
      { signatories: [signatories[0], signatories[0]] },
      /1\.id: "henrik-albers" is used twice/,
    ],
  ])('stops the start on %s, naming file and field', async (_case, files, message) => {
    const load = loadCompanyData(configFolder(files));
    await expect(load).rejects.toThrow(ConfigError);
    await expect(loadCompanyData(configFolder(files))).rejects.toThrow(message);
  });

  it('names a file that is not JSON', async () => {
    const dir = configFolder({});
    writeFileSync(join(dir, 'signatories.json'), '[{');
    await expect(loadCompanyData(dir)).rejects.toThrow(/Invalid configuration file .*signatories\.json: /);
  });
});
