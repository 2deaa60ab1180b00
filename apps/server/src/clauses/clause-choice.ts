import {
  type CatalogueEntry,
  type ClauseChoice,
  type ClauseContent,
  clauseTag,
  type DocumentClause,
  keysOfTemplate,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../shared/sha256.js';
import { TemplateError, type TemplateSource } from '../templates/renderer.js';
import { clauseKeysOfTemplate, placeClauses } from './clause-placement.js';
import { type CompiledRule, compileRule } from './clause-rules.js';
import { type DealFacts, dealFacts } from './deal-facts.js';

/** A clause's published version, as a document gets it. */
export interface PublishedClause {
  key: string;
  name: string;
  version: number;
  content: ClauseContent;
}

/** The published versions, read for every document: a publication applies to the next one in every replica. */
export interface PublishedClauses {
  published(keys: readonly string[]): Promise<Map<string, PublishedClause>>;
}

/** A template with its clauses placed for one document, and what was chosen. */
export interface PlacedTemplate {
  template: TemplateSource;
  /** The clauses the document holds: recorded with it. */
  clauses: DocumentClause[];
  /** Every clause the template places, with the reason it was taken or left out. */
  choices: ClauseChoice[];
}

/**
 * Chooses each clause a template places for one document — the first variant whose rule holds on the deal,
 * unless the person generating switched an optional clause off — and places them. Rules are compiled once per
 * clause version and placed templates kept per combination, so a deal's document costs a rule evaluation and
 * a cache look-up; the renderer's own cache then parses each combination once.
 */
export class ClausePlacer {
  private readonly keysOf = new LRUCache<string, string[]>({ max: 256 });
  private readonly rules = new LRUCache<string, CompiledRule[]>({ max: 1024 });
  private readonly placed = new LRUCache<string, TemplateSource>({
    max: 128,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (source) => source.content.byteLength || 1,
  });

  constructor(private readonly clauses: PublishedClauses) {}

  /** The clause keys a template version places (cached by its content's hash). */
  keysOfTemplate(template: TemplateSource): string[] {
    let keys = this.keysOf.get(template.sha256);
    if (!keys) {
      keys = clauseKeysOfTemplate(template.content);
      this.keysOf.set(template.sha256, keys);
    }
    return keys;
  }

  /**
   * What keeps a template version from placing its clauses, per key: a clause the library does not have or
   * has not published, or one without text in a language of the template's documents.
   */
  async problems(template: TemplateSource): Promise<{ key: string; message: string }[]> {
    const keys = this.keysOfTemplate(template);
    if (keys.length === 0) return [];
    const published = await this.clauses.published(keys);
    const languages = [...new Set(keysOfTemplate(template.name).map((entry) => entry.params.language))];
    return keys.flatMap((key) => {
      const clause = published.get(key);
      if (!clause)
        return [
          {
            key,
            message: `Die Klausel „${key}“ gibt es in der Klauselbibliothek nicht, oder sie ist noch nicht veröffentlicht.`,
          },
        ];
      return languages.flatMap((language) =>
        clause.content.variants
          .filter((variant) => variant[language].trim() === '')
          .map((variant) => ({
            key,
            message: `Die Klausel „${clause.name}“ hat in der Variante „${variant.name}“ keinen ${language === 'de' ? 'deutschen' : 'englischen'} Text; diese Vorlage braucht ihn.`,
          })),
      );
    });
  }

  /**
   * The optional clauses a template places that the rules give this deal a variant of: what the form offers
   * as checkboxes, each ticked as its default says.
   */
  async optionalClauses(
    template: TemplateSource,
    entry: CatalogueEntry,
    match: ResolvedMatch,
  ): Promise<{ key: string; name: string; checked: boolean; variant: string }[]> {
    const keys = this.keysOfTemplate(template);
    if (keys.length === 0) return [];
    const published = await this.clauses.published(keys);
    const facts = dealFacts(entry, match);
    return keys.flatMap((key) => {
      const clause = published.get(key);
      if (!clause || clause.content.option === 'always') return [];
      const { choice } = chooseVariant(clause, facts, true, this.compiled(clause));
      return choice.chosen
        ? [
            {
              key,
              name: clause.name,
              checked: clause.content.option === 'optional-on',
              variant: choice.chosen.variant,
            },
          ]
        : [];
    });
  }

  /**
   * `switches`: the optional clauses the person generating ticked (true) or unticked (false); a clause not
   * named takes its default. Throws a `TemplateError` for a placed clause that has no published version.
   */
  async place(
    template: TemplateSource,
    entry: CatalogueEntry,
    match: ResolvedMatch,
    switches: Readonly<Record<string, boolean>> = {},
  ): Promise<PlacedTemplate> {
    const keys = this.keysOfTemplate(template);
    if (keys.length === 0) return { template, clauses: [], choices: [] };
    const published = await this.clauses.published(keys);
    const missing = keys.filter((key) => !published.has(key));
    if (missing.length > 0)
      throw new TemplateError(
        template.name,
        missing.map((key) => ({
          part: 'word/document.xml',
          tag: clauseTag(key),
          message: `Die Klausel „${key}“ gibt es nicht oder sie ist nicht veröffentlicht.`,
        })),
        template.sha256,
      );
    const facts = dealFacts(entry, match);
    const language = entry.params.language;
    const texts = new Map<string, string | null>();
    const choices: ClauseChoice[] = [];
    const signature: string[] = [template.sha256, language];
    for (const key of keys) {
      const clause = published.get(key) as PublishedClause;
      const { choice, variant } = chooseVariant(clause, facts, switches[key], this.compiled(clause));
      choices.push(choice);
      texts.set(key, variant === null ? null : (clause.content.variants[variant]?.[language] ?? null));
      signature.push(`${key}@${clause.version}:${variant ?? '-'}`);
    }
    return {
      template: this.placedTemplate(template, signature.join('|'), texts),
      clauses: choices.flatMap((choice) => (choice.chosen ? [choice.chosen] : [])),
      choices,
    };
  }

  private compiled(clause: PublishedClause): CompiledRule[] {
    const id = `${clause.key}@${clause.version}`;
    let rules = this.rules.get(id);
    if (!rules) {
      rules = variantRules(clause.content);
      this.rules.set(id, rules);
    }
    return rules;
  }

  private placedTemplate(
    template: TemplateSource,
    id: string,
    texts: Map<string, string | null>,
  ): TemplateSource {
    let placed = this.placed.get(id);
    if (!placed) {
      const content = placeClauses(template.content, texts);
      placed = { ...template, content, sha256: sha256Hex(content) };
      this.placed.set(id, placed);
    }
    return placed;
  }
}

/** The variants' rules as functions; a rule that cannot be read (never published so) holds for no deal. */
export function variantRules(content: ClauseContent): CompiledRule[] {
  return content.variants.map((variant) => {
    const check = compileRule(variant.rule);
    return check.ok ? check.holds : () => false;
  });
}

/**
 * One clause for one document: left out when it is optional and not chosen (`switched`: the person
 * generating ticked it, unticked it, or left it to its default), else the first variant whose rule holds.
 */
export function chooseVariant(
  clause: PublishedClause,
  facts: DealFacts,
  switched: boolean | undefined,
  rules: CompiledRule[],
): { choice: ClauseChoice; variant: number | null } {
  const { option, variants } = clause.content;
  const base = { key: clause.key, name: clause.name };
  if (option !== 'always' && (switched === false || (switched === undefined && option === 'optional-off')))
    return {
      choice: {
        ...base,
        chosen: null,
        reason: switched === false ? 'Beim Erstellen abgewählt' : 'Wählbar, nicht ausgewählt',
      },
      variant: null,
    };
  const index = rules.findIndex((holds) => holds(facts));
  const variant = variants[index];
  if (!variant) return { choice: { ...base, chosen: null, reason: 'Keine Regel trifft zu' }, variant: null };
  const rule = variant.rule?.trim() || null;
  return {
    choice: {
      ...base,
      chosen: { key: clause.key, version: clause.version, variant: variant.name, rule },
      reason: rule ? `Regel „${rule}“ trifft zu` : 'Gilt immer',
    },
    variant: index,
  };
}
