import { join, resolve } from 'node:path';
import { AuditLog } from '../admin/audit-log.js';
import { loadCompanyData } from '../templates/companies.js';
import { createRendererPool } from '../templates/renderer.js';
import { richestDemoMatch } from '../templates/samples.js';
import { fileProblems } from '../templates/template-check.js';
import { writeTemplatePreview } from '../templates/template-preview.js';
import { formatProblem } from '../templates/template-problems.js';
import { TemplateVersions } from '../templates/template-versions.js';
import type { CommandLineTool } from './tool.js';

/**
 * `templates:lint -- --gespeichert` and `templates:preview -- --gespeichert`: the same checks and the
 * same preview as for the files, on the versions stored in the database — beside a
 * running server on the embedded database, run by that server.
 */

export const STORED_FLAG = '--gespeichert';

/** Checks the published version and every draft of each template; fails only for a published one. */
export const storedTemplatesLintTool: CommandLineTool = {
  name: 'templates-lint',
  files: () => [],
  async run(args, { db }, io) {
    if (args.length > 0) {
      io.err(`Verwendung: npm run templates:lint -- ${STORED_FLAG}`);
      return 1;
    }
    const templates = new TemplateVersions(db, new AuditLog(db));
    let checked = 0;
    let publishedWithProblems = 0;
    for (const { name } of await templates.list()) {
      const { versions } = await templates.detail(name);
      for (const version of versions.filter((v) => v.status !== 'ersetzt')) {
        const { content } = await templates.version(name, version.version);
        const problems = fileProblems(content);
        checked++;
        if (problems.length > 0 && version.status === 'veröffentlicht') publishedWithProblems++;
        const label = `${name} Version ${version.version} (${version.status})`;
        for (const problem of problems) {
          io.out(
            formatProblem(label, {
              ...(problem.tag ? { tag: problem.tag } : {}),
              ...(problem.suggestion ? { suggestion: problem.suggestion } : {}),
              message: problem.place ? `${problem.place}: ${problem.message}` : problem.message,
            }),
          );
        }
      }
    }
    io.out(
      `${checked} gespeicherte Versionen geprüft: ${
        publishedWithProblems === 0
          ? 'keine veröffentlichte mit Problemen'
          : `${publishedWithProblems} veröffentlichte mit Problemen`
      }.`,
    );
    return publishedWithProblems === 0 ? 0 : 1;
  },
};

/** Renders every catalogue key from its template's published version into a folder. */
export const storedTemplatesPreviewTool: CommandLineTool = {
  name: 'templates-preview',
  files: () => [],
  async run(args, { db, configDir }, io) {
    if (args.length > 1 || args[0]?.startsWith('-')) {
      io.err(`Verwendung: npm run templates:preview -- ${STORED_FLAG} [zielordner]`);
      return 1;
    }
    const renderer = createRendererPool({ threads: 1 });
    try {
      const failed = await writeTemplatePreview(
        resolve(args[0] ?? './data/preview'),
        {
          renderer,
          templates: new TemplateVersions(db, new AuditLog(db)),
          companyData: await loadCompanyData(configDir),
          match: await richestDemoMatch(join(configDir, 'demo-matches.json')),
          today: new Date(),
        },
        (line) => io.out(line),
      );
      return failed === 0 ? 0 : 1;
    } finally {
      await renderer.close();
    }
  },
};
