import type { DataList } from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { DocumentsRepository } from '../documents/documents-repository.js';
import type { EventSink } from '../shared/product-events.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';

const SENDER = 'ops@demo.local';
/** The actor of what the product records by itself. */
export const SYSTEM_ACTOR = { email: 'system', ip: null, userAgent: null };

/**
 * A generated document of match PL-4711 and its envelope to one project partner, recorded by the
 * repositories as the product records them, so that `sink` sees what the product hands it.
 */
export async function recordedEnvelope(
  db: Db,
  sink: EventSink<Kysely<Database>>,
): Promise<{ id: string; envelopes: EnvelopesRepository }> {
  const documents = new DocumentsRepository(db, sink);
  const documentId = await documents.create({
    matchId: 'PL-4711',
    docKey: 'de-wm-pp-rv',
    form: 'docusign',
    createdBy: SENDER,
    fileName: 'PL-4711 Vertrag.docx',
    dataList: {} as DataList,
    dataSha256: 'a'.repeat(64),
  });
  await documents.complete(documentId, {
    content: new Uint8Array([1, 2, 3]),
    templateSha256: 'b'.repeat(64),
    templateVersion: 1,
    createdBy: SENDER,
  });
  const envelopes = new EnvelopesRepository(db, sink);
  const { id } = await envelopes.create({
    documentId,
    documentVersion: 1,
    documentSha256: 'c'.repeat(64),
    matchId: 'PL-4711',
    customer: 'Kunde GmbH',
    docKey: 'de-wm-pp-rv',
    provider: 'builtin',
    subject: 'Vertrag',
    message: '',
    sender: { name: 'Ops', email: SENDER },
    recipients: [
      { role: 'Projektpartner', name: 'Paula Partner', email: 'paula@partner.example', routingOrder: 1 },
    ],
    createdBy: SYSTEM_ACTOR,
    requestKey: null,
  });
  return { id, envelopes };
}
