// Browser tests drive Debian's Chromium: test tools cannot download a browser of their own here.
// Installs it with apt-get when running as root; otherwise says exactly what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log('Chromium fehlt: installiere Debians Paket "chromium" mit apt-get …');
    const apt = (...args) =>
      execFileSync('apt-get', args, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    apt('update', '-qq');
    apt('install', '-y', '-qq', '--no-install-recommends', 'chromium');
  } else {
    console.error(
      `Die Browsertests brauchen Chromium unter ${CHROMIUM}.\n` +
        'Installiere es mit:  sudo apt-get install -y chromium\n' +
        '(oder setze CHROMIUM_PATH auf ein vorhandenes Chromium).',
    );
    process.exit(1);
  }
}
