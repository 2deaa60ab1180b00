import { AccessRequests } from '../admin/access-requests.js';
import type { CountersignatureSettings } from '../admin/countersignature-settings.js';
import { MatchFileImport } from '../admin/match-file-import.js';
import { StaffAdministration } from '../admin/staff-administration.js';
import { MatchStore } from '../matches/match-store.js';
import { accessRequestRoutes } from '../routes/access-requests.js';
import { administrationRoutes } from '../routes/administration.js';
import { countersignatureSettingsRoutes } from '../routes/countersignature-settings.js';
import { matchImportRoutes } from '../routes/match-import.js';
import { supportRoutes } from '../routes/support.js';
import { SupportReports } from '../support/support-reports.js';
import type { AppContext } from './app-context.js';

/** Team-Operations: access requests, staff, the audit log, the countersignature switch, match imports, problem reports. */
export async function registerAdministration(
  context: AppContext,
  countersignatureSettings: CountersignatureSettings,
): Promise<void> {
  const { app, deps, guards, audit, outbox, signInRateLimit } = context;
  const { config, db } = deps;
  const requests = new AccessRequests({
    db,
    audit,
    outbox,
    publicUrl: config.publicUrl,
    configuredAdministrators: config.admin.administrators,
    ...(config.admin.accessRequestEmail ? { notify: config.admin.accessRequestEmail } : {}),
  });
  await app.register(accessRequestRoutes, { guards, requests, rateLimit: signInRateLimit });
  await app.register(administrationRoutes, {
    guards,
    requests,
    staff: new StaffAdministration(db, audit, config.admin.administrators),
    audit,
  });
  await app.register(countersignatureSettingsRoutes, { guards, settings: countersignatureSettings });
  await app.register(matchImportRoutes, { guards, imports: new MatchFileImport(new MatchStore(db), audit) });
  await app.register(supportRoutes, {
    guards,
    reports: new SupportReports(db, outbox),
    rateLimit: signInRateLimit,
  });
}
