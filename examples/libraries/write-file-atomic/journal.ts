/**
 * A journal on write-file-atomic 6 (the last release whose engines include Node 20; 7 and 8 make
 * the same calls), used as its README says: `await writeFileAtomic(file, data)`. It writes a temp
 * file, fsyncs it, gives it the old file's owner and mode (chown, chmod) and renames it over the
 * old one — and never fsyncs the folder, so the rename itself may not survive a power loss.
 */
import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { stateInFile, stateJournal, unlessMissing, type State } from '../stateJournal.js';

const FILE = 'state.json';

export default stateJournal(
  'write-file-atomic',
  () => ({
    load: () => unlessMissing(async () => JSON.parse(await readFile(FILE, 'utf8')) as State),
    save: (state) => writeFileAtomic(FILE, JSON.stringify(state)),
  }),
  (disk) => stateInFile(disk, FILE),
);
