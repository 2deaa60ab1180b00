/** /signaturen: the envelopes to follow up on. */
export { SignatureOverviewPage } from './signature-overview-page';
