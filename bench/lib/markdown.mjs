import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const HEADER = `# Performance

Measured by \`npm run bench\`. Each section below is rewritten by the benchmark that owns it
(between its \`bench:…\` markers); text outside the markers is kept. Figures on a shared 2-core machine
are noisy: compare the ratios measured within one run, not absolute milliseconds across runs.

| suite | what it measures | budget |
| --- | --- | --- |
| \`rendering\` | one document per family: our renderer against Carbone and the floor | ≥ 2× faster than Carbone |
| \`http\` | the API under load (autocannon): match lookup, users list, DOCX generation, e-signature envelope at 1, 10 and 50 connections, on PGlite and PostgreSQL | DOCX p99 ≤ 100 ms at 10 connections, no errors |
| \`start\` | \`node apps/server/dist/main.js\` to a healthy \`/backend/health\`, first start and restart | restart ≤ 3 s |
| \`overview\` | \`GET /backend/signature/envelopes\` (Offene Signaturen) with 10,000 envelopes, for legal staff (all) and a consultant (her 1,000): default view, status filters, searches, a deep page, on PGlite and PostgreSQL | p90 ≤ 500 ms per view |
| \`soak\` | 10 minutes of mixed traffic at 20 connections: 5xx and the server's memory over time | growth ≤ 10 %, no 5xx |

\`npm run bench\` builds and runs every suite but \`soak\`; \`npm run bench -- http start\` runs the ones
named, \`npm run bench -- soak\` the soak (10 minutes). \`--quick\` runs a few rounds only, to try a suite
out, and leaves this file alone. \`node --expose-gc bench/run.mjs …\` does the same without building first.
`;

/**
 * Replaces the text between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` in `file`, or
 * appends the section; everything else in the file stays as it is.
 */
export function writeSection(file, name, body) {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from !== -1 && to > from
      ? current.slice(0, from) + section + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
