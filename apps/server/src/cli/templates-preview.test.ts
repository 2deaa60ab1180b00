import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE } from '@vertragsgenerator/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { loadCompanyData } from '../templates/companies.js';
import { folderTemplates } from '../templates/folder-templates.js';
import { createRendererPool } from '../templates/renderer.js';
import { richestDemoMatch } from '../templates/samples.js';
import { docxText } from '../test/docx-text.js';
import { runTemplatesPreview } from './templates-preview.js';

const config = loadConfig({}, '0');
const renderer = createRendererPool({ threads: 1 });
const templates = folderTemplates(config.templatesDir);
afterAll(() => renderer.close());

describe('npm run templates:preview', () => {
  it('writes every catalogue key as <key>.docx and prints a line per key', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'vg-preview-')), 'vorschau');
    const sources = {
      renderer,
      templates,
      companyData: await loadCompanyData(config.configDir),
      match: await richestDemoMatch(join(config.configDir, 'demo-matches.json')),
      today: new Date(2026, 10, 21),
    };
    const out: string[] = [];
    const code = await runTemplatesPreview([folder], sources, {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });

    expect(code).toBe(0);
    const keys = [...CATALOGUE.keys()];
    expect(readdirSync(folder).sort()).toEqual(keys.map((key) => `${key}.docx`).sort());
    expect(out).toHaveLength(keys.length + 1);
    expect(out).toContain('de-wm-k-rv-1.docx  PL-10001 Rahmenvertrag Kunde Elbwerk Logistik AG.docx');
    expect(out.at(-1)).toBe(`${keys.length} von ${keys.length} Dokumenten in ${folder}`);
    expect(docxText(readFileSync(join(folder, 'de-wm-k-rv-1.docx')))).toContain('Elbwerk Logistik AG');
  });

  it('explains its usage', async () => {
    const out: string[] = [];
    const code = await runTemplatesPreview(['a', 'b'], {} as never, {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(code).toBe(1);
    expect(out.join('\n')).toMatch(/Verwendung/);
  });
});
