/**
 * The embedded provider's German pages. Plain server-rendered HTML: they must work before the SPA
 * is loaded and inside the sign-in popup.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Inline styles only, under a CSP of their own that forbids every script. */
export const IDP_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f1f3f5;
    font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529}
  main{width:100%;max-width:380px;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:32px}
  h1{font-size:1.35rem;margin:0 0 4px}
  p.lead{margin:0 0 24px;color:#495057;font-size:.95rem}
  label{display:block;font-weight:600;font-size:.9rem;margin:16px 0 6px}
  input{width:100%;padding:10px 12px;font-size:1rem;border:1px solid #ced4da;border-radius:6px}
  input:focus{outline:2px solid #1971c2;outline-offset:1px;border-color:#1971c2}
  button{margin-top:24px;width:100%;padding:11px;font-size:1rem;font-weight:600;color:#fff;background:#1971c2;
    border:0;border-radius:6px;cursor:pointer}
  button:hover{background:#1864ab}
  .error{margin:0 0 8px;padding:10px 12px;border-radius:6px;background:#fff5f5;color:#c92a2a;border:1px solid #ffc9c9}
  footer{margin-top:20px;font-size:.8rem;color:#495057;text-align:center}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function loginPage(options: { action: string; email?: string; error?: string }): string {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  return page(
    'Anmelden – Vertragsgenerator',
    `<h1>Anmelden</h1>
<p class="lead">Melde dich mit deinem Firmenkonto beim Vertragsgenerator an.</p>
${error}
<form method="post" action="${escapeHtml(options.action)}" autocomplete="on">
  <label for="email">E-Mail</label>
  <input id="email" name="email" type="email" required autofocus autocomplete="username" value="${escapeHtml(options.email ?? '')}">
  <label for="password">Passwort</label>
  <input id="password" name="password" type="password" required autocomplete="current-password">
  <button type="submit">Anmelden</button>
</form>
<footer>Demo-SSO des Vertragsgenerators</footer>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'Anmeldung nicht möglich – Vertragsgenerator',
    `<h1>Anmeldung nicht möglich</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p class="lead">Schließe dieses Fenster und starte die Anmeldung im Vertragsgenerator erneut.</p>`,
  );
}
