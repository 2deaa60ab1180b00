// Runs shell commands side by side and fails if any fails: `npm test` builds while it lints, since the
// type checkers and the build each keep one of CI's two cores busy. Each command's output is printed
// in one piece when it ends, so that the logs of two commands do not interleave.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      process.stdout.write(`\n> ${command}\n${Buffer.concat(output).toString()}`);
      if (code !== 0) console.error(`"${command}" failed (${signal ?? `exit code ${code}`})`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(commands.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
