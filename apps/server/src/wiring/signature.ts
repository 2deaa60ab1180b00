import type { CountersignatureSettings } from '../admin/countersignature-settings.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { createPdfRenditions } from '../documents/pdf-rendition.js';
import { docusignConnectRoutes } from '../routes/docusign-connect.js';
import { envelopeFilesRoutes } from '../routes/envelope-files.js';
import { generateEnvelopeRoutes } from '../routes/generate-envelope.js';
import { sealCheckRoutes } from '../routes/seal-check.js';
import { signatureRoutes } from '../routes/signature.js';
import { signatureOverviewRoutes } from '../routes/signature-overview.js';
import { signingRoutes } from '../routes/signing.js';
import { HOUSEKEEPING_INTERVAL_MS, OUTBOX_INTERVAL_MS } from '../shared/background-jobs.js';
import { loadOnce } from '../shared/load-once.js';
import type { ApprovalGate, ApprovedSender, EnvelopeApprovalSource } from '../signature/approval-gate.js';
import { BuiltinSigning } from '../signature/builtin-signing.js';
import type { CertificateInput } from '../signature/certificate.js';
import { Countersignature } from '../signature/countersignature.js';
import { EnvelopeCreation } from '../signature/create-envelope.js';
import { DocusignApprovedSender } from '../signature/docusign/docusign-approved-sender.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { EnvelopeOverviewQuery } from '../signature/overview/envelope-overview.js';
import { LinkExpiries } from '../signature/reminders/link-expiries.js';
import { SigningReminders } from '../signature/reminders/signing-reminders.js';
import { EnvelopeSealer } from '../signature/seal/envelope-sealer.js';
import type { SealCertificate } from '../signature/seal/seal-certificate.js';
import { SealRenewal } from '../signature/seal/seal-renewal.js';
import { SealedPdfCheck } from '../signature/seal/sealed-pdf-check.js';
import { loadSigningLinkKey, SigningLinks } from '../signature/signing-links.js';
import type { AppContext, AreaRunning } from './app-context.js';

/**
 * Envelopes from creation to the sealed PDF: the sender's routes, the signers' pages (built-in signing
 * only), DocuSign's webhook, the seal and its renewal, reminders and the seal check.
 */
export async function registerSignature(
  context: AppContext,
  countersignatureSettings: CountersignatureSettings,
  /** Freigabe (wiring/approvals.ts): the gate before every send, and the sender view's part. */
  approvals?: ApprovalGate & EnvelopeApprovalSource,
): Promise<AreaRunning & { approvedSender: ApprovedSender; countersignature: Countersignature }> {
  const { app, deps, guards, outbox, documents, generation, signInRateLimit } = context;
  const { config, db } = deps;
  const envelopes = new EnvelopesRepository(db, context.events);
  const seal = await serverSeal(db, config);
  const timestamping = config.seal.timestamps && {
    authorities: new (await import('../signature/seal/timestamp-authority.js')).TimestampAuthorities(
      config.seal.timestamps,
    ),
    renewDaysBefore: config.seal.renewDaysBefore,
  };
  const sealRenewal = new SealRenewal({ db, timestamping, log: app.log });
  const pdfRenditions = deps.pdfRenditions ?? createPdfRenditions();
  const sealer = new EnvelopeSealer({
    db,
    envelopes,
    outbox,
    log: app.log,
    events: context.events,
    providerDocument: deps.signatureProvider?.completedDocument?.bind(deps.signatureProvider),
    renderContract: (docx) => pdfRenditions.render(docx),
    seal:
      deps.sealEnvelope ??
      (async (envelope, sealedAt) => {
        const [{ sealedEnvelopePdf }, certificate] = await Promise.all([
          import('../signature/seal/sealed-envelope-pdf.js'),
          seal.certificate(),
        ]);
        return sealedEnvelopePdf(envelope, {
          seal: certificate,
          publicUrl: config.publicUrl,
          sealedAt,
          timestamping,
        });
      }),
  });
  const countersignature = new Countersignature({
    companyData: deps.companyData,
    withoutAllowed: (family, executor) => countersignatureSettings.withoutAllowed(family, executor),
    position: (template, executor) => countersignatureSettings.order.position(template, executor),
  });
  const signingLinkKey = await loadSigningLinkKey(db);
  const links = new SigningLinks({
    envelopes,
    publicUrl: config.publicUrl,
    linkValidDays: config.signature.linkValidDays,
    reminderEveryDays: config.signature.reminderEveryDays,
    key: signingLinkKey,
    now: () => new Date(),
  });
  const builtinSigning = new BuiltinSigning({
    db,
    envelopes,
    outbox,
    publicUrl: config.publicUrl,
    links,
    // pdf-lib and the fonts load with the first certificate, not at start.
    renderCertificate: async (input: CertificateInput) =>
      (await import('../signature/certificate.js')).renderCertificate(input),
    sealer,
    signerCode: config.signature.kind === 'builtin' ? config.signature.signerCode : 'off',
    codeKey: signingLinkKey,
    countersignature,
    ...(approvals ? { approvalGate: approvals } : {}),
  });
  const reminders = new SigningReminders({
    db,
    envelopes,
    outbox,
    links,
    reminderEveryDays: config.signature.reminderEveryDays,
  });
  const linkExpiries = new LinkExpiries({ db, envelopes });
  // With DocuSign, the sender view and signing happen there: our signing pages stay closed.
  const signing = deps.signatureProvider ? undefined : builtinSigning;
  await app.register(generateEnvelopeRoutes, {
    guards,
    envelopeCreation: new EnvelopeCreation({
      generation,
      envelopes,
      provider: deps.signatureProvider ?? builtinSigning,
      publicUrl: config.publicUrl,
      countersignature,
      ...(approvals ? { approvalGate: approvals } : {}),
    }),
  });
  await app.register(signatureRoutes, {
    guards,
    envelopes,
    signing,
    reminders: signing && reminders,
    pdf: pdfRenditions,
    countersignature,
    approvals,
  });
  await app.register(envelopeFilesRoutes, { guards, documents, envelopes, pdf: pdfRenditions });
  await app.register(sealCheckRoutes, {
    guards,
    check: new SealedPdfCheck({ db, currentSeal: seal.fingerprint }),
  });
  await app.register(signatureOverviewRoutes, {
    guards,
    overview: new EnvelopeOverviewQuery(db),
    builtinSigning: signing !== undefined,
  });
  await app.register(signingRoutes, { signing, pdf: pdfRenditions, rateLimit: signInRateLimit });
  if (config.signature.kind === 'docusign') {
    await app.register(docusignConnectRoutes, {
      hmacKey: config.signature.connectHmacKey,
      envelopes,
      onCompleted: () => sealer.sealSoon(),
    });
  }
  return {
    countersignature,
    approvedSender:
      deps.signatureProvider && approvals
        ? new DocusignApprovedSender({
            db,
            envelopes,
            provider: deps.signatureProvider,
            gate: approvals,
            countersignature,
            matches: deps.matches,
            companyData: deps.companyData,
            log: app.log,
          })
        : builtinSigning,
    jobs: [
      { every: OUTBOX_INTERVAL_MS, run: () => sealer.sealDue() },
      { every: OUTBOX_INTERVAL_MS, run: () => reminders.sendDue() },
      { every: OUTBOX_INTERVAL_MS, run: () => linkExpiries.recordDue() },
      { every: HOUSEKEEPING_INTERVAL_MS, run: () => sealRenewal.renewDue() },
    ],
    // The sealer first: a seal it finishes queues mail, which the outbox may still take.
    stop: [() => sealer.stop(), () => sealRenewal.stop(), () => reminders.stop(), () => linkExpiries.stop()],
  };
}

/**
 * The seal's fingerprint at start, its certificate once an envelope is sealed. A company certificate
 * (SEAL_P12_FILE) is read and checked at start: a wrong password or an expired certificate stops the
 * start. The self-signed seal in the database was checked when it was made, for ten years; reading it
 * (node-forge, the PKCS#12 key derivation) took a tenth of a restart, and its fingerprint, all the
 * start needs, is stored beside it. On the first start it is made and read at once.
 */
async function serverSeal(
  db: Db,
  config: Config,
): Promise<{ fingerprint: string; certificate: () => Promise<SealCertificate> }> {
  const load = async () =>
    (await import('../signature/seal/seal-store.js')).loadSeal(db, {
      configured: config.seal.certificate,
      commonName: `Vertragsgenerator-Siegel ${new URL(config.publicUrl).host}`,
    });
  const stored = config.seal.certificate
    ? undefined
    : await db.selectFrom('seal_certificate').select('fingerprint').where('id', '=', 1).executeTakeFirst();
  if (!stored) {
    const seal = await load();
    return { fingerprint: seal.fingerprint, certificate: async () => seal };
  }
  // A database that was not reachable is read again at the next sealing.
  return { fingerprint: stored.fingerprint, certificate: loadOnce(load) };
}
