import { clauseTag, type ResolvedMatch, type TemplateCheckProblem } from '@vertragsgenerator/domain';
import { containerProblem } from './docx-container.js';
import type { TemplateSource } from './renderer.js';
import { lintTemplate } from './template-lint.js';
import { describePart } from './template-problems.js';
import { type TrialSources, tryTemplate } from './template-trial.js';

/**
 * The check of an uploaded version, run on the server before it is stored: the file
 * itself (a DOCX, not encrypted, no macros, no hostile XML), its placeholders against the field
 * dictionary with a suggestion for each unknown one, its tags and sections, and — rendered with a
 * demo match — the signature anchors of every key that is signed. Any problem blocks publishing.
 */
export async function checkTemplate(
  template: TemplateSource,
  example: ResolvedMatch | null,
  sources: TrialSources,
): Promise<TemplateCheckProblem[]> {
  const problems = fileProblems(template.content);
  // A template that does not parse cannot be rendered; its syntax problems say all there is.
  if (problems.length > 0) return problems;
  // Nor can one whose clauses the library cannot give: said once per clause, not once per document.
  for (const { key, message } of (await sources.clauses?.problems(template)) ?? [])
    problems.push({ place: 'Haupttext', tag: clauseTag(key), message, suggestion: null });
  if (problems.length > 0 || !example) return problems;
  // Keys with the same gap are named together: a deleted block would otherwise be told 26 times.
  const keysMissing = new Map<string, string[]>();
  for (const document of await tryTemplate(template, example, sources)) {
    if (document.error) {
      problems.push({
        place: null,
        tag: null,
        message: `${document.entry.key}: ${document.error}`,
        suggestion: null,
      });
    } else if (document.missingAnchors.length > 0) {
      const anchors = document.missingAnchors.join(', ');
      keysMissing.set(anchors, [...(keysMissing.get(anchors) ?? []), document.entry.key]);
    }
  }
  for (const [anchors, keys] of keysMissing) {
    problems.push({
      place: 'Unterschriftsblock',
      tag: '{#unterschriften}',
      message: `Im Dokument fehlen die Unterschriftsanker ${anchors} (bei ${keys.join(', ')}): ohne sie kann dort niemand elektronisch unterschreiben. Der Abschnitt {#unterschriften}…{/unterschriften} mit {ankerSignatur}, {ankerDatum} und {ankerName} muss erhalten bleiben.`,
      suggestion: null,
    });
  }
  return problems;
}

/**
 * The checks that need no rendering: the file and its placeholders. What a template taken from the
 * templates folder is checked with at the first start, without starting the render threads.
 */
export function fileProblems(content: Uint8Array): TemplateCheckProblem[] {
  const fileProblem = containerProblem(content);
  if (fileProblem) return [{ place: null, tag: null, message: fileProblem, suggestion: null }];
  return lintTemplate(content).map((problem) => ({
    place: problem.part ? describePart(problem.part) : null,
    tag: problem.tag ?? null,
    message: problem.message,
    suggestion: problem.suggestion ?? null,
  }));
}
