// The tests drive Debian's Chromium headless shell (test tools cannot download a browser of their own here), check
// sealed PDFs with poppler's pdfsig, openssl and qpdf, the metrics with Prometheus' promtool, and run a
// timestamp authority of their own with openssl. Installs what is missing
// with apt-get when running as root; otherwise says exactly what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const TOOLS = [
  {
    path: process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
    debianPackage: 'chromium-headless-shell',
    usedBy: 'Die Browsertests',
  },
  { path: '/usr/bin/pdfsig', debianPackage: 'poppler-utils', usedBy: 'Die Prüfung der versiegelten PDFs' },
  { path: '/usr/bin/qpdf', debianPackage: 'qpdf', usedBy: 'Die Strukturprüfung der versiegelten PDFs' },
  { path: '/usr/bin/promtool', debianPackage: 'prometheus', usedBy: 'Die Metrik-Tests' },
  {
    path: '/usr/bin/openssl',
    debianPackage: 'openssl',
    usedBy: 'Der Test-Zeitstempeldienst und die Prüfung der Siegel',
  },
];

const missing = TOOLS.filter((tool) => !existsSync(tool.path));
if (missing.length > 0) {
  const packages = missing.map((tool) => tool.debianPackage);
  if (process.getuid?.() === 0) {
    console.log(`Es fehlt ${packages.join(', ')}: installiere Debians Pakete mit apt-get …`);
    const apt = (...args) =>
      execFileSync('apt-get', args, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    apt('update', '-qq');
    apt('install', '-y', '-qq', '--no-install-recommends', ...packages);
  } else {
    console.error(
      `${missing.map((tool) => `${tool.usedBy} brauchen ${tool.path}.`).join('\n')}\n` +
        `Installiere es mit:  sudo apt-get install -y ${packages.join(' ')}\n` +
        '(für Chromium: oder setze CHROMIUM_PATH auf ein vorhandenes Chromium).',
    );
    process.exit(1);
  }
}
