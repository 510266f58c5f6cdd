/**
 * A journal on jsonfile 6, used as its README says: `await jsonfile.writeFile(file, obj)` and
 * `await jsonfile.readFile(file)`. It rewrites the file in place with fs.writeFile: truncated,
 * then written, never fsynced.
 */
import jsonfile from 'jsonfile';
import { stateInFile, stateJournal, unlessMissing, type State } from '../stateJournal.js';

const FILE = 'state.json';

export default stateJournal(
  'jsonfile',
  () => ({
    load: () => unlessMissing(async () => (await jsonfile.readFile(FILE)) as State),
    save: (state) => jsonfile.writeFile(FILE, state),
  }),
  (disk) => stateInFile(disk, FILE),
);
