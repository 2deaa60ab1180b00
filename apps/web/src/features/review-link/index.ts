/** The counterparty's review page behind their e-mail link (`/vertragspruefung#<token>`). */
export { ReviewPage } from './review-page';
export { preloadReviewPage } from './review-preload';
