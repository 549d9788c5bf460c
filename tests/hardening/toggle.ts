// Swaps a folder for a symbolic link and back as fast as it can, until
// killed or until the deadline: the folder is moved aside (to a hidden
// name beside it, so whatever was written in it stays in the topic), a
// link takes its name, then the folder comes back. Run beside kb remember
// to hit the window between checking a folder and writing in it.
// Usage: bun toggle.ts FOLDER LINK-TARGET SECONDS
import { mkdirSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const [folder, target, seconds] = [process.argv[2], process.argv[3], Number(process.argv[4] ?? 5)];
const aside = join(dirname(folder), `.${basename(folder)}-aside`);
const deadline = Date.now() + seconds * 1000;
const quietly = (f: () => void) => {
  try {
    f();
  } catch {
    // Racing with the writer is the point.
  }
};

for (let i = 0; Date.now() < deadline; i++) {
  quietly(() => renameSync(folder, aside));
  quietly(() => symlinkSync(target, folder));
  // Leave the link in place a little longer every other round.
  if (i % 2 === 0) for (let k = 0; k < 2000; k++);
  quietly(() => unlinkSync(folder));
  try {
    renameSync(aside, folder);
  } catch {
    // A writer made the folder again while it was away: that one goes
    // aside under a name of its own (what it holds stays in the topic),
    // and the folder comes back; else both stay, and no link is made again.
    quietly(() => renameSync(folder, join(dirname(folder), `.${basename(folder)}-made-${i}`)));
    quietly(() => renameSync(aside, folder));
  }
  quietly(() => mkdirSync(folder));
}
