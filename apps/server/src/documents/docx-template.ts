import { BLANK_LINE } from '@vertragsgenerator/domain';
import Docxtemplater, { type DXT } from 'docxtemplater';
import PizZip from 'pizzip';

/**
 * Parses a DOCX template the way the renderer fills it. `templates:lint` compiles with the same
 * options, so that what lint accepts is exactly what renders.
 */
export function compileTemplate(bytes: Uint8Array, modules: DXT.Module[] = []): Docxtemplater<PizZip> {
  return new Docxtemplater(new PizZip(bytes), {
    // A section tag alone in its paragraph removes that paragraph too, not only the tag's text.
    paragraphLoop: true,
    // Multi-line CRM text (task description) keeps its line breaks in Word.
    linebreaks: true,
    // A missing value prints as a line to fill in, never as "undefined". Sections (`module: 'loop'`)
    // must get a falsy value instead: a blank line would show a section whose condition is unknown.
    nullGetter: (part) => (part.module ? '' : BLANK_LINE),
    // Errors are reported as TemplateProblems; docxtemplater's own console dump would duplicate them.
    errorLogging: false,
    modules,
  });
}
