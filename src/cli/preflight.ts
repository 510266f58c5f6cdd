/**
 * Output problems are found before the first run, so a long check never ends unable to save what
 * it found: a report folder that is a file, a JUnit file that is a folder or under a file, a folder
 * that cannot be written. A missing folder is no problem: durasim makes it (as `--report-dir` and
 * `--junit out/1.xml` on a fresh CI runner expect). Nothing is written by the checks but a probe file, removed at once.
 */
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DurasimError } from '../../model/contract/failure.js';
import { sweepLeftovers } from '../durableFile.js';

const fail = (reason: string, fix: string): never => {
  throw new DurasimError('prepare the outputs', reason, fix);
};

/** The nearest folder on the way up that exists (a file in the way is an error). */
function nearestExisting(path: string, flag: string, given: string): string {
  let current = resolve(path);
  for (;;) {
    if (existsSync(current)) {
      if (!statSync(current).isDirectory()) fail(`${flag} ${given} cannot be a folder: ${current} is a file`, `Pass a folder path for ${flag}`);
      return current;
    }
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}

function probeWritable(folder: string, flag: string, given: string): void {
  sweepLeftovers(folder); // a probe or a temp file a killed durasim left here
  const probe = join(folder, `.durasim-probe-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    fail(`${flag} ${given} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)} in ${folder})`, `Pass a folder you can write to for ${flag}`);
  }
}

/** A folder durasim will create if missing and write into. */
export function checkOutputFolder(path: string, flag: string): void {
  probeWritable(nearestExisting(path, flag, path), flag, path);
}

/** A file durasim will write (making its folder if missing): the path must not be a folder, nor under a file, and the folder must be writable. */
export function checkOutputFile(path: string, flag: string): void {
  const absolute = resolve(path);
  if (existsSync(absolute) && statSync(absolute).isDirectory()) fail(`${flag} ${path} is a folder`, `Pass a file path for ${flag}, e.g. ${join(path, 'durasim.xml')}`);
  const folder = dirname(absolute);
  if (existsSync(folder) && !statSync(folder).isDirectory()) fail(`${flag} ${path} is in ${folder}, which is a file`, `Pass a path in a folder`);
  probeWritable(nearestExisting(folder, flag, path), flag, path);
}
