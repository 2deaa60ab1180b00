import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { folderTemplates } from '../templates/folder-templates.js';
import { fileProblems } from '../templates/template-check.js';
import { TemplateVersions } from '../templates/template-versions.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { docxText } from '../test/docx-text.js';
import { editedTemplate } from '../test/template-edit.js';
import { storedTemplatesLintTool, storedTemplatesPreviewTool } from './templates-stored.js';
import type { ToolContext } from './tool.js';

const { configDir, templatesDir } = loadConfig({}, '0');
const OLD_TEXT = 'An dieses Angebot halten wir uns vier Wochen';
const NEW_TEXT = 'An dieses Angebot halten wir uns sechs Wochen';

describe('templates:lint and templates:preview on the stored versions (--gespeichert)', () => {
  let db: Db;
  let context: ToolContext;
  const out: string[] = [];
  const io = { out: (line: string) => out.push(line), err: (line: string) => out.push(line) };

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    const templates = new TemplateVersions(db, new AuditLog(db));
    const folder = folderTemplates(templatesDir);
    await templates.seed(
      async (name) => (await folder.current(name)).content,
      async (_name, content) => fileProblems(content),
    );
    const offer = readFileSync(join(templatesDir, 'angebot-de.docx'));
    const changed = editedTemplate(offer, [[OLD_TEXT, NEW_TEXT]]);
    await templates.add('angebot-de.docx', {
      content: changed,
      comment: 'sechs Wochen',
      createdBy: 'legal@demo.local',
      problems: [],
    });
    await templates.publish('angebot-de.docx', 2, { actor: 'legal@demo.local', comment: 'ok', replaces: 1 });
    const misspelt = editedTemplate(offer, [['{angebotStundensatz}', '{angebotStundensaz}']]);
    await templates.add('angebot-de.docx', {
      content: misspelt,
      comment: 'Tippfehler',
      createdBy: 'legal@demo.local',
      problems: fileProblems(misspelt),
    });
    context = {
      db,
      actor: 'cli:test',
      administrators: new Set(),
      productVersion: '0.0.0-test',
      databaseKind: 'pglite',
      configDir,
      readText: async () => '',
    };
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('lint checks the published versions and the drafts, and passes while only a draft has a problem', async () => {
    out.length = 0;
    expect(await storedTemplatesLintTool.run([], context, io)).toBe(0);
    expect(out).toEqual([
      'angebot-de.docx Version 3 (Entwurf): {angebotStundensaz} – Haupttext: Unbekannter Platzhalter: nicht im Feldverzeichnis (docs/templates.md). Gemeint: {angebotStundensatz}?',
      '10 gespeicherte Versionen geprüft: keine veröffentlichte mit Problemen.',
    ]);
  });

  it('preview renders every key from the published versions', async () => {
    out.length = 0;
    const folder = join(mkdtempSync(join(tmpdir(), 'vg-stored-preview-')), 'vorschau');
    expect(await storedTemplatesPreviewTool.run([folder], context, io)).toBe(0);
    expect(readdirSync(folder)).toHaveLength(CATALOGUE.size);
    expect(docxText(readFileSync(join(folder, 'angebot-wm.docx')))).toContain(NEW_TEXT);
    expect(out.at(-1)).toBe(`${CATALOGUE.size} von ${CATALOGUE.size} Dokumenten in ${folder}`);
  });
});
