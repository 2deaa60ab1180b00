import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  CATALOGUE,
  CLAUSE_TAG_INNER,
  catalogueTemplates,
  TEMPLATE_FIELDS,
  type TemplateFieldKind,
} from '@vertragsgenerator/domain';
import type { DXT } from 'docxtemplater';
import { closest, distance } from 'fastest-levenshtein';
import { compileTemplate } from './docx-template.js';
import { formatProblem, type TemplateProblem, templateProblems } from './template-problems.js';

export interface LintResult {
  /** Template files checked. */
  checked: number;
  /** One German line per problem, naming file and tag. */
  problems: string[];
}

/**
 * Checks every template of a folder against the field dictionary
 * (packages/domain/src/documents/template-fields.ts) with docxtemplater's own parser, which also finds a
 * placeholder Word split over several runs, and reports that split.
 */
export async function lintTemplates(templatesDir: string): Promise<LintResult> {
  // One file, e.g. a new version before it is uploaded to /vorlagen.
  if (templatesDir.endsWith('.docx')) {
    try {
      const problems = lintTemplate(await readFile(templatesDir));
      return {
        checked: 1,
        problems: problems.map((problem) => formatProblem(basename(templatesDir), problem)),
      };
    } catch (error) {
      return {
        checked: 0,
        problems: [`${templatesDir} kann nicht gelesen werden: ${(error as Error).message}`],
      };
    }
  }
  let files: string[];
  try {
    // `~$…` are the owner files Word keeps beside a document while it is open.
    files = (await readdir(templatesDir)).filter((f) => f.endsWith('.docx') && !f.startsWith('~$')).sort();
  } catch (error) {
    return {
      checked: 0,
      problems: [`Der Vorlagenordner ${templatesDir} kann nicht gelesen werden: ${error}`],
    };
  }
  const problems: string[] = [];
  for (const file of files) {
    const bytes = await readFile(join(templatesDir, file));
    for (const problem of lintTemplate(bytes)) problems.push(formatProblem(file, problem));
  }
  for (const template of catalogueTemplates()) {
    if (files.includes(template)) continue;
    const keys = [...CATALOGUE.values()].filter((e) => e.template === template).map((e) => e.key);
    const examples = keys.slice(0, 3).join(', ') + (keys.length > 3 ? ', …' : '');
    problems.push(`${template}: Die Vorlage fehlt, gebraucht für ${keys.length} Dokumente (${examples}).`);
  }
  return { checked: files.length, problems };
}

/**
 * The placeholders of a template per part (document, headers, footers …), sections with their
 * content nested, as the renderer parses them; a template with syntax errors throws.
 */
export function templateTags(bytes: Uint8Array): ReadonlyMap<string, DXT.Part[]> {
  const collector = new TagCollector();
  compileTemplate(bytes, [collector]);
  return collector.parts;
}

/** The problems of one template file: syntax errors, placeholders that do not fit, split placeholders. */
export function lintTemplate(bytes: Uint8Array): TemplateProblem[] {
  const collector = new TagCollector();
  const problems: TemplateProblem[] = [];
  try {
    compileTemplate(bytes, [collector]);
  } catch (error) {
    problems.push(...templateProblems(error));
  }
  for (const [part, parsed] of collector.parts) {
    problems.push(...checkTags(parsed, [TOP_LEVEL]).map((problem) => ({ part, ...problem })));
  }
  for (const [part, tags] of collector.splitTags) {
    for (const tag of tags) problems.push({ part, tag, message: SPLIT_TAG_MESSAGE });
  }
  // Word repeats a letterhead tag on every page type; one line per distinct problem is enough.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.part}|${p.tag}|${p.message}`;
    return !seen.has(key) && seen.add(key);
  });
}

const SPLIT_TAG_MESSAGE =
  'Der Platzhalter ist in Word auf mehrere Textstücke verteilt (z. B. nur teilweise formatiert oder ' +
  'in mehreren Anläufen getippt). Bitte löschen und in einem Zug neu tippen.';

type Scope = ReadonlyMap<string, TemplateFieldKind>;

const TOP_LEVEL: Scope = new Map(Object.entries(TEMPLATE_FIELDS).map(([name, field]) => [name, field.kind]));

/**
 * Inside a loop docxtemplater looks a name up in the loop's entry first, then outside: the same
 * scopes are checked here, innermost first.
 */
function checkTags(parts: DXT.Part[], scopes: Scope[]): Omit<TemplateProblem, 'part'>[] {
  const problems: Omit<TemplateProblem, 'part'>[] = [];
  for (const part of parts) {
    if (part.type !== 'placeholder') continue;
    const name = part.value;
    const isSection = part.module === 'loop';
    const tag = `{${isSection ? (part.inverted ? '^' : '#') : part.module === 'rawxml' ? '@' : ''}${name}}`;
    const kind = scopes.find((scope) => scope.has(name))?.get(name);
    if (part.module === 'rawxml') {
      // A clause of the library is the one raw tag there is; the upload check asks the library for it.
      if (!CLAUSE_TAG_INNER.test(`@${name}`))
        problems.push({
          tag,
          message:
            'Platzhalter mit „@“ gibt es nur für Klauseln der Klauselbibliothek, z. B. {@klausel:haftung}.',
        });
    } else if (!kind) {
      const meant = closestName(name, scopes, isSection);
      problems.push({ tag, message: unknownNameMessage(scopes), ...(meant ? { suggestion: meant } : {}) });
    } else if (isSection && kind === 'text') {
      problems.push({
        tag,
        message: `„${name}“ ist ein Textfeld; {#…}/{^…} gehen nur mit Bedingungen und Schleifen. Gemeint ist wohl {${name}}.`,
      });
    } else if (!isSection && kind !== 'text') {
      problems.push({
        tag,
        message: `„${name}“ ist eine ${kind === 'loop' ? 'Schleife' : 'Bedingung'} und kein Text: sie braucht {#${name}}…{/${name}}.`,
      });
    }
    if (isSection && part.subparsed) {
      const item = kind === 'loop' && !part.inverted ? loopItemScope(name) : undefined;
      problems.push(...checkTags(part.subparsed, item ? [item, ...scopes] : scopes));
    }
  }
  return problems;
}

function loopItemScope(name: string): Scope | undefined {
  const field = TEMPLATE_FIELDS[name as keyof typeof TEMPLATE_FIELDS];
  const item = 'item' in field ? field.item : undefined;
  return item && new Map(Object.keys(item).map((key) => [key, 'text' as const]));
}

/**
 * The dictionary name an unknown one most likely means, written as the tag was (`{#…}` for a section):
 * a typo a few letters off, or a name differing only in case. Further off, guessing would mislead.
 */
function closestName(name: string, scopes: Scope[], isSection: boolean): string | undefined {
  const names = [...new Set(scopes.flatMap((scope) => [...scope.keys()]))];
  const byCase = names.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const meant = byCase ?? closest(name, names);
  if (!byCase && distance(name, meant) > Math.max(2, Math.floor(name.length / 4))) return undefined;
  return isSection ? `{#${meant}}` : `{${meant}}`;
}

function unknownNameMessage(scopes: Scope[]): string {
  const item = scopes.length > 1 ? scopes[0] : undefined;
  const itemFields = item ? ` Im Abschnitt erlaubt: ${[...item.keys()].join(', ')} und alle Felder.` : '';
  return `Unbekannter Platzhalter: nicht im Feldverzeichnis (docs/templates.md).${itemFields}`;
}

/**
 * A docxtemplater module that keeps what the compiler hands to modules for every part (document,
 * headers, footers …): the tags with loops already nested, and the placeholders Word split.
 */
class TagCollector implements DXT.Module {
  readonly name = 'TagCollector';
  readonly parts = new Map<string, DXT.Part[]>();
  readonly splitTags = new Map<string, string[]>();
  private part = '';

  set(options: { inspect?: { filePath?: string; postparsed?: DXT.Part[]; lexed?: LexedToken[] } }): void {
    if (options.inspect?.filePath) this.part = options.inspect.filePath;
    if (options.inspect?.postparsed) this.parts.set(this.part, options.inspect.postparsed);
    if (options.inspect?.lexed) this.splitTags.set(this.part, splitTags(options.inspect.lexed));
  }
}

/** docxtemplater's lexer output: the XML tags of the part and, within text, its delimiters. */
interface LexedToken {
  type: 'tag' | 'content' | 'delimiter';
  position?: string;
  value?: string;
}

/**
 * Placeholders whose text spans several runs: XML tags between the opening and the closing brace.
 * docxtemplater still fills them, but the value takes the formatting of the first piece only, and
 * the next edit in Word may tear the pieces further apart.
 */
function splitTags(lexed: LexedToken[]): string[] {
  const split: string[] = [];
  let tag: { text: string; crossesRuns: boolean } | undefined;
  for (const token of lexed) {
    if (token.type === 'delimiter') {
      if (token.position === 'start') tag = { text: '', crossesRuns: false };
      else if (tag) {
        if (tag.crossesRuns) split.push(`{${tag.text}}`);
        tag = undefined;
      }
    } else if (tag && token.type === 'tag') tag.crossesRuns = true;
    else if (tag && token.type === 'content') tag.text += token.value ?? '';
  }
  return split;
}
