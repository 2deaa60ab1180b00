import type {
  CatalogueEntry,
  ContractTerms,
  DataList,
  DocumentClause,
  ResolvedMatch,
  TemplateData,
} from '@vertragsgenerator/domain';
import type { ClausePlacer } from '../clauses/clause-choice.js';
import { sha256Hex } from '../shared/sha256.js';
import { documentFileName } from '../templates/file-name.js';
import {
  type RenderedDocument,
  type Renderer,
  TemplateError,
  type TemplateSource,
  type TemplateSources,
} from '../templates/renderer.js';
import type { DocumentsRepository } from './documents-repository.js';

export interface DocumentOrder {
  entry: CatalogueEntry;
  matchId: string;
  /** The dataList as validated for the key: stored with the document. */
  dataList: DataList;
  data: TemplateData;
  /** The deal the data was made of: the clause rules read it. */
  match: ResolvedMatch;
  /** The deal's values its contract record will read, if it is ever signed. */
  terms?: ContractTerms;
  /** E-mail of the user. */
  createdBy: string;
  /** The batch's deal it is made for: one document per deal, however often it is tried. */
  batchItemId?: string;
}

export interface GeneratedDocument {
  id: string;
  fileName: string;
  content: Buffer;
}

/** Outcome of one document: made, refused by its template (our fault), or the renderer could not take it. */
export type GenerationResult = 'ok' | 'template_error' | 'unavailable';

/** What the document generator reports; the metrics count it. */
export interface GenerationObserver {
  documentGenerated(family: string, result: GenerationResult, renderSeconds: number): void;
}

/**
 * Makes a document and its history entry: what the user submitted is stored before
 * anything that can fail, then the rendered output becomes version 1.
 */
export class DocumentGenerator {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly renderer: Renderer,
    /** The published template versions: read for every document, so a publication in
     * any process applies to the next document everywhere. */
    private readonly templates: TemplateSources,
    /** Told of every document's outcome (the metrics, where METRICS_TOKEN is set). */
    private readonly observer?: GenerationObserver,
    /** Places the clauses a template names; without it a template's clause tags stay unfilled. */
    private readonly clauses?: ClausePlacer,
  ) {}

  /**
   * Throws the renderer's `TemplateError` or `RendererUnavailableError` after marking the document
   * failed with the reason.
   */
  async generate({
    entry,
    matchId,
    dataList,
    data,
    match,
    terms,
    createdBy,
    batchItemId,
  }: DocumentOrder): Promise<GeneratedDocument> {
    const fileName = documentFileName(entry, data);
    const document = {
      matchId,
      docKey: entry.key,
      form: entry.form,
      createdBy,
      fileName,
      dataList,
      dataSha256: sha256Hex(JSON.stringify(data)),
      ...(terms ? { terms } : {}),
    };
    const { id, ready } = batchItemId
      ? await this.documents.claimForBatchItem(batchItemId, document)
      : { id: await this.documents.create(document), ready: false };
    if (ready)
      return { id, fileName, content: Buffer.from((await this.documents.versionContent(id, 1)) ?? []) };
    let rendered: RenderedDocument;
    let template: TemplateSource | undefined;
    let clauses: DocumentClause[] = [];
    const started = performance.now();
    const renderSeconds = () => (performance.now() - started) / 1000;
    try {
      template = await this.templates.current(entry.template);
      // Every form may name the optional clauses the person ticked or unticked (`klauseln`).
      const switches = (dataList as { klauseln?: Record<string, boolean> }).klauseln;
      const placed = this.clauses
        ? await this.clauses.place(template, entry, match, switches)
        : { template, clauses };
      clauses = placed.clauses;
      // The history names the template version as stored; the clauses it holds are recorded beside it.
      rendered = { ...(await this.renderer.render(placed.template, data)), templateSha256: template.sha256 };
    } catch (error) {
      const result = error instanceof TemplateError ? 'template_error' : 'unavailable';
      this.observer?.documentGenerated(entry.params.family, result, renderSeconds());
      const reason = error instanceof Error ? error.message : String(error);
      await this.documents.fail(id, reason, template);
      throw error;
    }
    this.observer?.documentGenerated(entry.params.family, 'ok', renderSeconds());
    await this.documents.complete(id, { ...rendered, createdBy, clauses });
    return { id, fileName, content: rendered.content };
  }
}
