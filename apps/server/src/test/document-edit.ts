import type { FastifyInstance } from 'fastify';
import PizZip from 'pizzip';
import { expect } from 'vitest';
import { bearer } from './test-app.js';

/** `xml` with a word of the paragraph whose text is `paragraph` changed, and nothing else. */
export function withParagraphChanged(xml: string, paragraph: string): string {
  for (const [p] of xml.matchAll(/<w:p\b[^>]*>[\s\S]*?<\/w:p>/g)) {
    const text = [...p.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join('');
    if (text !== paragraph) continue;
    const changed = p.replace(/(<w:t(?:\s[^>]*)?>)([^<]*?)(\p{L}{5,})/u, '$1$2$3GEÄNDERT');
    expect(changed).not.toBe(p);
    return xml.replace(p, changed);
  }
  throw new Error(`the paragraph „${paragraph.slice(0, 60)}…“ is not in the document`);
}

/** The document's latest version saved again with a word of `paragraph` changed, as the editor saves an edit. */
export async function changeWord(
  app: FastifyInstance,
  token: string,
  documentId: string,
  paragraph: string,
): Promise<void> {
  const latest = await app.inject({
    method: 'GET',
    url: `/backend/documents/${documentId}/file`,
    headers: bearer(token),
  });
  const zip = new PizZip(latest.rawPayload);
  const xml = zip.file('word/document.xml')?.asText() ?? '';
  zip.file('word/document.xml', withParagraphChanged(xml, paragraph));
  const saved = await app.inject({
    method: 'PUT',
    url: `/backend/documents/${documentId}`,
    headers: {
      ...bearer(token),
      'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'if-match': `"${latest.headers['x-document-version']}"`,
    },
    payload: zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }),
  });
  expect(saved.statusCode, saved.body).toBe(200);
}
