// Mutates a topic directory as fast as it can until killed or until the
// deadline: files appear and vanish, grow and shrink, become directories,
// FIFOs and symlinks (dangling, looping, to devices), directories vanish
// with their contents. Run beside kb to hit every window between a walk and
// a read. Usage: bun churn.ts DIR SECONDS
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, seconds] = [process.argv[2], Number(process.argv[3] ?? 5)];
const deadline = Date.now() + seconds * 1000;
let i = 0;
const quietly = (f: () => void) => {
  try {
    f();
  } catch {
    // Racing with ourselves is the point.
  }
};

while (Date.now() < deadline) {
  const n = i++ % 8;
  const p = join(dir, `c${n}.md`);
  const d = join(dir, `cd${n}`);
  switch (i % 10) {
    case 0:
      quietly(() => writeFileSync(p, `churn ${i}\n`.repeat(i % 2000)));
      break;
    case 1:
      quietly(() => rmSync(p, { recursive: true, force: true }));
      break;
    case 2:
      quietly(() => {
        rmSync(p, { recursive: true, force: true });
        mkdirSync(p);
      });
      break;
    case 3:
      quietly(() => {
        rmSync(p, { recursive: true, force: true });
        symlinkSync(i % 2 ? '/dev/zero' : `c${(n + 1) % 8}.md`, p);
      });
      break;
    case 4:
      quietly(() => {
        mkdirSync(join(d, 'sub'), { recursive: true });
        writeFileSync(join(d, 'sub', 'x.md'), 'x\n');
        symlinkSync('..', join(d, 'sub', 'up'));
      });
      break;
    case 5:
      quietly(() => rmSync(d, { recursive: true, force: true }));
      break;
    case 6:
      quietly(() => truncateSync(p, 0));
      break;
    case 7:
      quietly(() => {
        rmSync(p, { recursive: true, force: true });
        if (i % 50 === 7) execFileSync('mkfifo', [p]);
      });
      break;
    case 8:
      quietly(() => writeFileSync(p, new Uint8Array([0, 1, 2, 3])));
      break;
    case 9:
      quietly(() => {
        writeFileSync(`${p}.tmp`, 'renamed\n');
        renameSync(`${p}.tmp`, p);
      });
      quietly(() => unlinkSync(`${p}.tmp`));
      break;
  }
}
