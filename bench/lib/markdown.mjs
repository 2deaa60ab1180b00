import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const HEADER = `# Performance

Measured by \`npm run bench\` (DESIGN §12). Each section below is rewritten by the benchmark that owns it
(between its \`bench:…\` markers); text outside the markers is kept. Figures on a shared 2-core machine
are noisy: compare the ratios measured within one run, not absolute milliseconds across runs.
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
