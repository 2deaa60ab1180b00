/** The e-signature pages: the sender's view of an envelope and the signer's public page. */
export { SenderViewPage } from './sender-view-page';
export { SigningPage } from './signing-page';
