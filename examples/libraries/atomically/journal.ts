/**
 * A journal on atomically 2, used as its README says: `await writeFile(file, data)` and
 * `await readFile(file, 'utf8')`. It writes a temp file (fsynced by default), renames it over the
 * old one and retries what fails — and never fsyncs the folder.
 */
import { readFile, writeFile } from 'atomically';
import { stateInFile, stateJournal, unlessMissing, type State } from '../stateJournal.js';

const FILE = 'state.json';

export default stateJournal(
  'atomically',
  () => ({
    load: () => unlessMissing(async () => JSON.parse(await readFile(FILE, 'utf8')) as State),
    save: (state) => writeFile(FILE, JSON.stringify(state)),
  }),
  (disk) => stateInFile(disk, FILE),
);
