/**
 * What is wrong with a template, in words for the legal staff who edit it in Word: the renderer and
 * `templates:lint` describe docxtemplater's errors with these, so both say the same thing.
 */
export interface TemplateProblem {
  /** The part of the DOCX file, e.g. `word/document.xml`; absent when the whole file is the problem. */
  part?: string;
  /** The placeholder as written in the template, e.g. `{#mitKunde}`. */
  tag?: string;
  /** German explanation. */
  message: string;
  /** For an unknown placeholder: the closest name it may mean, as written, e.g. `{kundeName}`. */
  suggestion?: string;
}

/** `word/header1.xml` → `Kopfzeile (header1.xml)`: where in Word to look. */
export function describePart(part: string): string {
  const name = part.slice(part.lastIndexOf('/') + 1);
  if (part === 'word/document.xml') return 'Haupttext';
  if (name.startsWith('header')) return `Kopfzeile (${name})`;
  if (name.startsWith('footer')) return `Fußzeile (${name})`;
  if (name.startsWith('footnotes')) return 'Fußnoten';
  if (name.startsWith('endnotes')) return 'Endnoten';
  if (part.startsWith('docProps/')) return `Dokumenteigenschaften (${name})`;
  return part;
}

/** One line per problem, naming file, part and tag: what the CLI prints and the documents table keeps. */
export function formatProblem(templateFile: string, problem: TemplateProblem): string {
  const where = [templateFile, problem.part && describePart(problem.part)].filter(Boolean).join(', ');
  const meant = problem.suggestion ? ` Gemeint: ${problem.suggestion}?` : '';
  return `${where}: ${problem.tag ? `${problem.tag} – ` : ''}${problem.message}${meant}`;
}

/** A template file that cannot be read: missing from the templates folder, or not readable. */
export function unreadableTemplate(error: unknown): TemplateProblem {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    return { message: 'Die Vorlagendatei fehlt im Vorlagenordner.' };
  }
  return { message: `Die Vorlagendatei kann nicht gelesen werden: ${(error as Error).message}` };
}

interface DocxtemplaterErrorProperties {
  id?: string;
  file?: string;
  xtag?: string;
  explanation?: string;
  errors?: { properties?: DocxtemplaterErrorProperties; message?: string }[];
  openingtag?: string;
  closingtag?: string;
  lastPair?: { left: string; right: string };
  pair?: { left: string; right: string };
}

/**
 * The problems an exception of docxtemplater or PizZip stands for. docxtemplater collects every
 * syntax error of a template into one `multi_error`; each becomes its own problem.
 */
export function templateProblems(error: unknown): TemplateProblem[] {
  const properties = (error as { properties?: DocxtemplaterErrorProperties } | null)?.properties;
  if (properties?.id === 'multi_error' && properties.errors) {
    return properties.errors.flatMap((inner) => templateProblems(inner));
  }
  if (properties?.id) return [describe(properties)];
  const message = error instanceof Error ? error.message : String(error);
  // PizZip's words for a file that is not a ZIP archive at all, or a truncated one.
  if (/zip|end of data|central dir|signature/i.test(message)) {
    return [{ message: 'Die Datei ist keine gültige DOCX-Datei. Bitte in Word als .docx speichern.' }];
  }
  return [{ message: `Unerwarteter Fehler beim Lesen der Vorlage: ${message}` }];
}

function describe(p: DocxtemplaterErrorProperties): TemplateProblem {
  const at = p.file ? { part: p.file } : {};
  const tag = p.xtag;
  switch (p.id) {
    case 'unopened_tag':
      return {
        ...at,
        tag: `${tag}}`,
        message: 'Der Platzhalter wird geschlossen, aber nie mit „{“ geöffnet.',
      };
    case 'unclosed_tag':
      return {
        ...at,
        tag: `{${tag}`,
        message: 'Der Platzhalter wird geöffnet, aber nie mit „}“ geschlossen.',
      };
    case 'duplicate_open_tag':
      return { ...at, tag, message: 'Der Platzhalter hat zwei öffnende Klammern „{{“; erlaubt ist eine.' };
    case 'duplicate_close_tag':
      return { ...at, tag, message: 'Der Platzhalter hat zwei schließende Klammern „}}“; erlaubt ist eine.' };
    case 'unclosed_loop':
      return { ...at, tag: `{#${tag}}`, message: `Der Abschnitt wird nie mit {/${tag}} geschlossen.` };
    case 'unopened_loop':
      return {
        ...at,
        tag: `{/${tag}}`,
        message: `Der Abschnitt wird geschlossen, aber nie mit {#${tag}} geöffnet.`,
      };
    case 'closing_tag_does_not_match_opening_tag':
      return {
        ...at,
        tag: `{#${p.openingtag}}`,
        message: `Der Abschnitt wird mit {/${p.closingtag}} geschlossen statt mit {/${p.openingtag}}.`,
      };
    case 'unbalanced_loop_tags':
      return {
        ...at,
        tag: `{#${p.pair?.left}}`,
        message: `Die Abschnitte {#${p.lastPair?.left}} und {#${p.pair?.left}} überkreuzen sich: ein Abschnitt muss ganz innerhalb des anderen liegen.`,
      };
    case 'loop_position_invalid':
      return {
        ...at,
        tag: `{#${tag}}`,
        message:
          'Anfang und Ende des Abschnitts liegen an unvereinbaren Stellen, z. B. einer in einer Tabelle und der andere außerhalb.',
      };
    case 'raw_xml_tag_should_be_only_text_in_paragraph':
    case 'raw_tag_outerxml_invalid':
    case 'invalid_raw_xml_value':
      return {
        ...at,
        tag: `{@${tag}}`,
        message: 'Platzhalter mit „@“ (rohes XML) werden nicht unterstützt.',
      };
    case 'malformed_xml':
    case 'file_has_invalid_xml':
      return {
        ...at,
        message: 'Die Datei enthält beschädigtes XML. Bitte in Word öffnen und neu speichern.',
      };
    case 'filetype_not_identified':
    case 'filetype_not_handled':
      return { message: 'Die Datei ist keine gültige DOCX-Datei. Bitte in Word als .docx speichern.' };
    default:
      return { ...at, ...(tag ? { tag } : {}), message: `Vorlagenfehler: ${p.explanation ?? p.id}` };
  }
}
