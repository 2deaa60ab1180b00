import {
  type ClauseContent,
  type ClauseProblem,
  type ClauseVariant,
  TEMPLATE_FIELDS,
  type TemplateFieldKind,
} from '@vertragsgenerator/domain';
import { compileRule } from './clause-rules.js';

/**
 * The check of a clause version when it is saved; any problem blocks publishing. Both languages present in
 * every variant, every rule readable, every placeholder in the field dictionary and of the right kind, no
 * clause inside a clause (placing happens once, so a nested tag would stay as text — and could loop), and
 * no variant made unreachable by an earlier one without a rule.
 */
export function lintClauseContent(content: ClauseContent): ClauseProblem[] {
  const problems: ClauseProblem[] = [];
  content.variants.forEach((variant, index) => {
    const where = `Variante „${variant.name}“`;
    const rule = compileRule(variant.rule);
    if (!rule.ok) problems.push({ place: `${where}, Regel`, message: rule.message });
    if (!variant.rule?.trim() && index < content.variants.length - 1)
      problems.push({
        place: `${where}, Regel`,
        message:
          'Ohne Regel gilt diese Variante immer: die Varianten danach kämen nie zum Zug. Gib ihr eine Regel oder stelle sie ans Ende.',
      });
    for (const [language, label, missing] of [
      ['de', 'deutscher Text', 'Der deutsche Text fehlt'],
      ['en', 'englischer Text', 'Der englische Text fehlt'],
    ] as const) {
      const text = variant[language];
      if (text.trim() === '')
        problems.push({
          place: `${where}, ${label}`,
          message: `${missing}: jede Variante braucht beide Sprachen.`,
        });
      else problems.push(...tagProblems(text).map((message) => ({ place: `${where}, ${label}`, message })));
    }
  });
  const names = content.variants.map((variant: ClauseVariant) => variant.name.toLowerCase());
  const doubled = names.find((name, index) => names.indexOf(name) !== index);
  if (doubled !== undefined)
    problems.push({
      place: null,
      message: `Zwei Varianten heißen „${doubled}“: die Namen müssen verschieden sein.`,
    });
  return problems;
}

const FIELDS = TEMPLATE_FIELDS as Record<string, { kind: TemplateFieldKind }>;

/** The placeholders of one text, as docxtemplater will read them once the clause is placed. */
function tagProblems(text: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  const unmatched = text.replace(/\{[^{}]*\}/g, '').match(/[{}]/);
  if (unmatched) problems.push(`Eine Klammer „${unmatched[0]}“ ist nicht geschlossen bzw. nicht geöffnet.`);
  for (const [tag, inner = ''] of text.matchAll(/\{([^{}]*)\}/g)) {
    const sigil = /^[#^/@]/.exec(inner)?.[0] ?? '';
    const name = inner.slice(sigil.length).trim();
    if (sigil === '@') {
      problems.push(`${tag}: Eine Klausel kann keine Klausel und kein rohes XML enthalten.`);
      continue;
    }
    if (sigil === '/') {
      if (open.pop() !== name) problems.push(`${tag} schließt keinen offenen Abschnitt {#${name}}.`);
      continue;
    }
    const kind = FIELDS[name]?.kind;
    if (!kind) {
      const meant = Object.keys(FIELDS).find((known) => known.toLowerCase() === name.toLowerCase());
      problems.push(
        `${tag}: Unbekannter Platzhalter, nicht im Feldverzeichnis.${meant ? ` Gemeint ist wohl {${sigil}${meant}}.` : ''}`,
      );
    } else if (sigil && kind !== 'condition') {
      problems.push(
        `${tag}: „${name}“ ist ${kind === 'text' ? 'ein Textfeld' : 'eine Schleife'}; in Klauseln gehen Abschnitte nur mit Bedingungen.`,
      );
    } else if (!sigil && kind !== 'text') {
      problems.push(
        `${tag}: „${name}“ ist eine ${kind === 'loop' ? 'Schleife' : 'Bedingung'} und kein Text.`,
      );
    }
    if (sigil === '#' || sigil === '^') open.push(name);
  }
  for (const name of open) problems.push(`{#${name}} wird nicht mit {/${name}} geschlossen.`);
  return problems;
}
