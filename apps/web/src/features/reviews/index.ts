/** Negotiation with the counterparty: the editor page's „Verhandlung“ panel for legal staff. */

export { NegotiationPanel, type NegotiationPanelProps } from './negotiation-panel';
