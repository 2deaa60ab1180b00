import type { ParagraphChange } from '@vertragsgenerator/domain';
import { diffArrays, diffWordsWithSpace } from 'diff';
import PizZip from 'pizzip';

/**
 * The text of a template's body, one string per non-empty paragraph, as a reader sees it in Word:
 * runs joined, tabs and line breaks kept, placeholders as typed. Headers and footers are left out —
 * the letterhead comes from the company data, the contract text is the body.
 */
export function bodyParagraphs(content: Uint8Array): string[] {
  const xml = new PizZip(content).file('word/document.xml')?.asText() ?? '';
  const paragraphs: string[] = [];
  for (const [, inner = ''] of xml.matchAll(/<w:p[ >]([\s\S]*?)<\/w:p>/g)) {
    let text = '';
    for (const [run, , value] of inner.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>|<w:(tab|br|cr)\b[^>]*\/>/g)) {
      // `<w:tab/>` starts like `<w:t>`: the element's name tells them apart.
      if (value) text += value === 'tab' ? '\t' : '\n';
      else text += decodeXml(run.replace(/^<w:t[^>]*>|<\/w:t>$/g, ''));
    }
    if (text.trim()) paragraphs.push(text);
  }
  return paragraphs;
}

/**
 * The new version's paragraphs against the base's: kept, added, removed, or changed — a removed
 * paragraph followed by an added one at the same place, shown with its changed words marked.
 */
export function compareParagraphs(base: string[], next: string[]): ParagraphChange[] {
  const changes: ParagraphChange[] = [];
  const chunks = diffArrays(base, next);
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (!chunk) continue;
    const following = chunks[i + 1];
    if (chunk.removed && following?.added) {
      const paired = Math.min(chunk.value.length, following.value.length);
      for (let j = 0; j < paired; j++)
        changes.push(changedParagraph(chunk.value[j] ?? '', following.value[j] ?? ''));
      for (const text of chunk.value.slice(paired)) changes.push(whole('removed', text));
      for (const text of following.value.slice(paired)) changes.push(whole('added', text));
      i++;
    } else {
      for (const text of chunk.value)
        changes.push(whole(chunk.added ? 'added' : chunk.removed ? 'removed' : 'kept', text));
    }
  }
  return changes;
}

function whole(change: 'kept' | 'added' | 'removed', text: string): ParagraphChange {
  return { change, parts: [{ text, change }] };
}

function changedParagraph(before: string, after: string): ParagraphChange {
  return {
    change: 'changed',
    parts: diffWordsWithSpace(before, after).map((part) => ({
      text: part.value,
      change: part.added ? 'added' : part.removed ? 'removed' : 'kept',
    })),
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) =>
    entity.startsWith('#x') || entity.startsWith('#X')
      ? String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
      : entity.startsWith('#')
        ? String.fromCodePoint(Number(entity.slice(1)))
        : (ENTITIES[entity.toLowerCase()] ?? entity),
  );
}
