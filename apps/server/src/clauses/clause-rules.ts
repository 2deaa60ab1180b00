import { RULE_FIELDS, type RuleField, type RuleFieldName } from '@vertragsgenerator/domain';
import jsep, { type Expression } from 'jsep';
import type { DealFacts } from './deal-facts.js';

/**
 * The rule form of a clause variant, as legal writes it: comparisons of the deal's fields (RULE_FIELDS),
 * joined by `und`, `oder`, `nicht` and parentheses — `land = CH und partner = kunde`, `satz >= 120`,
 * `firma in [wm, we]`. jsep parses it (its word operators are configured once, below); the tree is checked
 * against the fields when a version is saved and turned into a function, so a document's choice costs
 * microseconds and a rule that cannot be read never reaches a generation.
 */

// Lower precedence binds later: `a = 1 oder b = 2 und c = 3` is `a = 1 oder (b = 2 und c = 3)`.
jsep.addBinaryOp('oder', 1);
jsep.addBinaryOp('und', 2);
jsep.addBinaryOp('=', 6);
jsep.addBinaryOp('in', 7);
jsep.addUnaryOp('nicht');

export type CompiledRule = (facts: DealFacts) => boolean;
export type RuleCheck = { ok: true; holds: CompiledRule } | { ok: false; message: string };

const EXAMPLE = 'Beispiel: land = CH und satz >= 120';
const COMPARISONS = new Set(['=', '==', '!=', '<', '<=', '>', '>=', 'in']);
const ORDERINGS = new Set(['<', '<=', '>', '>=']);

/** Thrown while compiling: the German message legal reads beside the rule. */
class RuleProblem extends Error {}

/** A rule as written → a function of the deal's facts, or the German reason it cannot be used. */
export function compileRule(text: string | null): RuleCheck {
  const source = (text ?? '').trim();
  if (source === '') return { ok: true, holds: () => true };
  let tree: Expression;
  try {
    tree = jsep(source);
  } catch (error) {
    const at = (error as { index?: number }).index;
    const where = typeof at === 'number' ? ` an Stelle ${at + 1}` : '';
    return { ok: false, message: `Die Regel ist${where} nicht lesbar. ${EXAMPLE}` };
  }
  try {
    return { ok: true, holds: condition(tree) };
  } catch (error) {
    if (error instanceof RuleProblem) return { ok: false, message: error.message };
    throw error;
  }
}

function condition(node: Expression): CompiledRule {
  if (node.type === 'UnaryExpression' && node.operator === 'nicht') {
    const inner = condition(node.argument as Expression);
    return (facts) => !inner(facts);
  }
  if (node.type === 'BinaryExpression') {
    const operator = node.operator as string;
    if (operator === 'und' || operator === 'oder') {
      const first = condition(node.left as Expression);
      const second = condition(node.right as Expression);
      return operator === 'und'
        ? (facts) => first(facts) && second(facts)
        : (facts) => first(facts) || second(facts);
    }
    const left = node.left as Expression;
    if (COMPARISONS.has(operator) && left.type === 'UnaryExpression' && left.operator === 'nicht') {
      // jsep binds `nicht` to the field alone: `nicht land = CH` means „not (land = CH)“.
      const inner = comparison(operator, left.argument as Expression, node.right as Expression);
      return (facts) => !inner(facts);
    }
    if (COMPARISONS.has(operator)) return comparison(operator, left, node.right as Expression);
    throw new RuleProblem(
      `„${operator}“ gibt es in Regeln nicht: vergleiche mit =, !=, <, <=, >, >= oder in und verbinde mit und, oder, nicht.`,
    );
  }
  if (node.type === 'Identifier' && fieldName(node.name as string))
    throw new RuleProblem(`Bei „${node.name}“ fehlt der Vergleich, z. B. ${node.name} = …. ${EXAMPLE}`);
  throw new RuleProblem(`Die Regel braucht Vergleiche wie „feld = wert“. ${EXAMPLE}`);
}

function comparison(operator: string, left: Expression, right: Expression): CompiledRule {
  if (left.type !== 'Identifier')
    throw new RuleProblem('Links vom Vergleich steht ein Feld, z. B. land = CH.');
  const name = fieldName(left.name as string);
  if (!name) throw new RuleProblem(unknownField(left.name as string));
  const field: RuleField = RULE_FIELDS[name];
  if (operator === 'in') {
    const items =
      right.type === 'ArrayExpression' || right.type === 'SequenceExpression' ? listOf(right) : null;
    if (!items)
      throw new RuleProblem(`Nach „in“ steht eine Liste, z. B. ${name} in [${exampleValues(name)}].`);
    const values = items.map((item) => value(name, item));
    return (facts) => {
      const fact = facts[name];
      return fact !== null && values.some((expected) => same(fact, expected));
    };
  }
  if (ORDERINGS.has(operator) && field.kind !== 'number')
    throw new RuleProblem(`„${name}“ ist kein Zahlenfeld: vergleiche es mit = oder !=.`);
  const expected = value(name, right);
  switch (operator) {
    case '=':
    case '==':
      return (facts) => facts[name] !== null && same(facts[name], expected);
    case '!=':
      return (facts) => facts[name] === null || !same(facts[name], expected);
    default: {
      const limit = expected as number;
      const test = ordering(operator);
      return (facts) => {
        const fact = facts[name];
        return typeof fact === 'number' && test(fact, limit);
      };
    }
  }
}

function ordering(operator: string): (fact: number, limit: number) => boolean {
  if (operator === '<') return (fact, limit) => fact < limit;
  if (operator === '<=') return (fact, limit) => fact <= limit;
  if (operator === '>') return (fact, limit) => fact > limit;
  return (fact, limit) => fact >= limit;
}

/** Text compares without case and surrounding blanks: `land = ch` means CH. */
function same(fact: string | number | null, expected: string | number): boolean {
  if (typeof expected === 'number') return fact === expected;
  return typeof fact === 'string' && fact.trim().toLowerCase() === expected;
}

function listOf(node: Expression): Expression[] {
  return (
    (node.type === 'ArrayExpression' ? node.elements : node.expressions) as (Expression | null)[]
  ).filter((item): item is Expression => item !== null);
}

/** The compared value, checked against the field: a number for numbers, one of the values for choices. */
function value(name: RuleFieldName, node: Expression): string | number {
  const field: RuleField = RULE_FIELDS[name];
  // A bare word is a value, not a field: `land = CH` reads as legal writes it.
  const raw =
    node.type === 'Literal'
      ? (node.value as unknown)
      : node.type === 'Identifier'
        ? (node.name as string)
        : undefined;
  if (field.kind === 'number') {
    if (typeof raw !== 'number' || !Number.isFinite(raw))
      throw new RuleProblem(`„${name}“ wird mit einer Zahl verglichen, z. B. ${name} >= 100.`);
    return raw;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number')
    throw new RuleProblem(
      `Rechts vom Vergleich mit „${name}“ steht ein Wert, z. B. ${name} = ${exampleValues(name)}.`,
    );
  const text = String(raw).trim().toLowerCase();
  if (field.values && !field.values.includes(text))
    throw new RuleProblem(`„${name}“ kennt nur ${field.values.join(', ')} – nicht „${raw}“.`);
  return text;
}

function exampleValues(name: RuleFieldName): string {
  const field: RuleField = RULE_FIELDS[name];
  return field.values?.slice(0, 2).join(', ') ?? (name === 'land' ? 'CH, AT' : '…');
}

function fieldName(name: string): RuleFieldName | undefined {
  return Object.hasOwn(RULE_FIELDS, name) ? (name as RuleFieldName) : undefined;
}

function unknownField(name: string): string {
  const lower = name.toLowerCase();
  const close = (Object.keys(RULE_FIELDS) as RuleFieldName[]).find((known) => known.toLowerCase() === lower);
  return close
    ? `Unbekanntes Feld „${name}“ – meinst du „${close}“?`
    : `Unbekanntes Feld „${name}“. Regeln kennen ${Object.keys(RULE_FIELDS).join(', ')}.`;
}
