'use strict';
// After install, on macOS and Linux: bin/kb (npm's `kb` links to it)
// becomes the platform package's binary itself, a hard link, so that every
// run starts kb rather than Node.js and then kb (Node.js's start-up saved
// on every run). Nothing is downloaded. Where that cannot be done
// (Windows, a package on another file system, a binary that does not run
// here) the Node.js launcher stays, and works the same; this says why on
// stderr.

const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

function main() {
  if (process.platform === 'win32') return;
  const binary = require('./lib/platform.js').binaryPath();
  const { version } = require('./package.json');
  const said = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 60000 });
  if (!said.startsWith(`${version} `)) throw new Error(`${binary} says it is ${said.trim()}, not ${version}`);
  const launcher = path.join(__dirname, 'bin', 'kb');
  const temp = `${launcher}.${process.pid}.tmp`;
  fs.linkSync(binary, temp);
  try {
    fs.renameSync(temp, launcher);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`kb: kept the Node.js launcher in bin/kb (${err.message})\n`);
}
