import type { PersonSearch as PersonSearchAnswer } from '@vertragsgenerator/domain';
import type { AuditLog } from '../admin/audit-log.js';
import type { PersonErasure } from './person-erase.js';
import type { PersonExports } from './person-export.js';
import type { PersonSearch } from './person-search.js';

/** A person's data on request (Art. 15 and 17 DSGVO): search, export and erase, every search on record. */
export class PersonData {
  constructor(
    private readonly audit: AuditLog,
    readonly search: PersonSearch,
    readonly exports: PersonExports,
    readonly erasure: PersonErasure,
  ) {}

  async find(actor: string, query: string): Promise<PersonSearchAnswer> {
    const { hits, truncated } = await this.search.find(query);
    await this.audit.record({
      actor,
      action: 'person.search',
      subject: query,
      newValue: `${hits.length} Fundstellen`,
    });
    return { query, hits, truncated };
  }
}
