/** Routes of the SPA outside the document forms (those are `FORM_ROUTES` in the domain package). */
export const PATHS = {
  root: '/',
  login: '/login',
  authCallback: '/auth/callback',
  start: '/start',
  format: '/format',
} as const;
