import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_identity.js';
import * as m0002 from './0002_support_reports.js';
import * as m0003 from './0003_matches.js';
import * as m0004 from './0004_documents.js';
import * as m0005 from './0005_outgoing_mail.js';
import * as m0006 from './0006_envelopes.js';
import * as m0007 from './0007_crm_match_cache.js';
import * as m0008 from './0008_document_content_storage.js';
import * as m0009 from './0009_administration.js';
import * as m0010 from './0010_access_requests.js';
import * as m0011 from './0011_sealed_envelopes.js';
import * as m0012 from './0012_signing_follow_up.js';
import * as m0013 from './0013_template_versions.js';
import * as m0014 from './0014_signer_verification.js';
import * as m0015 from './0015_seal_levels.js';
import * as m0016 from './0016_countersignature.js';
import * as m0017 from './0017_secret_mail_bodies.js';
import * as m0018 from './0018_approvals.js';
import * as m0019 from './0019_webhooks.js';
import * as m0020 from './0020_api_clients.js';
import * as m0021 from './0021_privacy.js';
import * as m0022 from './0022_crm_writeback.js';
import * as m0023 from './0023_document_approvals.js';
import * as m0024 from './0024_countersignature_order.js';
import * as m0025 from './0025_person_erasures.js';
import * as m0026 from './0026_webhook_delivery_lease.js';
import * as m0027 from './0027_contract_records.js';
import * as m0028 from './0028_files_deleted_envelopes.js';
import * as m0029 from './0029_contract_reminders.js';
import * as m0030 from './0030_contract_lead_times.js';
import * as m0031 from './0031_contract_consultant_order.js';
import * as m0032 from './0032_contract_rates.js';
import * as m0033 from './0033_batches.js';
import * as m0034 from './0034_batch_envelopes.js';
import * as m0035 from './0035_template_marks.js';
import * as m0036 from './0036_reviews.js';
import * as m0037 from './0037_clauses.js';

/**
 * Versioned migrations, applied in name order at start. Listed statically so the compiled server
 * needs no directory scan. Never edit a migration that has shipped; add a new one.
 */
const migrations: Record<string, Migration> = {
  '0001_identity': m0001,
  '0002_support_reports': m0002,
  '0003_matches': m0003,
  '0004_documents': m0004,
  '0005_outgoing_mail': m0005,
  '0006_envelopes': m0006,
  '0007_crm_match_cache': m0007,
  '0008_document_content_storage': m0008,
  '0009_administration': m0009,
  '0010_access_requests': m0010,
  '0011_sealed_envelopes': m0011,
  '0012_signing_follow_up': m0012,
  '0013_template_versions': m0013,
  '0014_signer_verification': m0014,
  '0015_seal_levels': m0015,
  '0016_countersignature': m0016,
  '0017_secret_mail_bodies': m0017,
  '0018_approvals': m0018,
  '0019_webhooks': m0019,
  '0020_api_clients': m0020,
  '0021_privacy': m0021,
  '0022_crm_writeback': m0022,
  '0023_document_approvals': m0023,
  '0024_countersignature_order': m0024,
  '0025_person_erasures': m0025,
  '0026_webhook_delivery_lease': m0026,
  '0027_contract_records': m0027,
  '0028_files_deleted_envelopes': m0028,
  '0029_contract_reminders': m0029,
  '0030_contract_lead_times': m0030,
  '0031_contract_consultant_order': m0031,
  '0032_contract_rates': m0032,
  '0033_batches': m0033,
  '0034_batch_envelopes': m0034,
  '0035_template_marks': m0035,
  '0036_reviews': m0036,
  '0037_clauses': m0037,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
