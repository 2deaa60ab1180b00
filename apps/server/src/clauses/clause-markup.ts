/**
 * A clause's text as legal types it in `/klauseln`: a blank line between paragraphs, a line starting
 * `- ` a bullet, `1. ` a numbered item, `**…**` bold, a single line break kept as one, placeholders of the
 * field dictionary as in templates (`{kunde}`). Small on purpose: what Word would add beyond it (fonts,
 * spacing, the numbering of the template's paragraphs) comes from the template the clause is placed in.
 */

export interface ClauseRun {
  text: string;
  bold: boolean;
}

export interface ClauseBlock {
  kind: 'paragraph' | 'bullet' | 'numbered';
  /** For a numbered item: its number within its list, from 1. */
  number: number;
  /** The block's lines; a line break between them. */
  lines: ClauseRun[][];
}

const BULLET = /^[-*•]\s+/;
const NUMBERED = /^\d{1,3}[.)]\s+/;

export function parseClauseMarkup(markup: string): ClauseBlock[] {
  const blocks: ClauseBlock[] = [];
  for (const chunk of markup.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((line) => line.trim() !== '');
    let paragraph: string[] = [];
    let number = 0;
    const flush = () => {
      if (paragraph.length > 0) blocks.push({ kind: 'paragraph', number: 0, lines: paragraph.map(runsOf) });
      paragraph = [];
    };
    for (const text of lines.map((line) => line.trim())) {
      if (BULLET.test(text)) {
        flush();
        number = 0;
        blocks.push({ kind: 'bullet', number: 0, lines: [runsOf(text.replace(BULLET, ''))] });
      } else if (NUMBERED.test(text)) {
        flush();
        number += 1;
        blocks.push({ kind: 'numbered', number, lines: [runsOf(text.replace(NUMBERED, ''))] });
      } else {
        number = 0;
        paragraph.push(text);
      }
    }
    flush();
  }
  return blocks;
}

/** `**` toggles bold; an unmatched one is kept as typed. */
function runsOf(line: string): ClauseRun[] {
  const pieces = line.split('**');
  if (pieces.length % 2 === 0) return [{ text: line, bold: false }];
  return pieces.map((text, index) => ({ text, bold: index % 2 === 1 })).filter((run) => run.text !== '');
}

/** Each block as plain text, as a compared or tried paragraph shows it. */
export function blockTexts(blocks: ClauseBlock[]): string[] {
  return blocks.map((block) => {
    const text = block.lines.map((line) => line.map((run) => run.text).join('')).join('\n');
    if (block.kind === 'bullet') return `•\t${text}`;
    if (block.kind === 'numbered') return `${block.number}.\t${text}`;
    return text;
  });
}
