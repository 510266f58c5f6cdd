/**
 * A journal on fs-extra 11, used as its README says: `await fs.outputJson(file, obj)` (which makes
 * the folder if it is missing) and `await fs.readJson(file)`. It writes through jsonfile: the file
 * rewritten in place, never fsynced.
 */
import fs from 'fs-extra';
import { stateInFile, stateJournal, type State } from '../stateJournal.js';

const FILE = 'data/state.json';

export default stateJournal(
  'fs-extra',
  () => ({
    load: async () => ((await fs.pathExists(FILE)) ? ((await fs.readJson(FILE)) as State) : undefined),
    save: (state) => fs.outputJson(FILE, state),
  }),
  (disk) => stateInFile(disk, FILE),
);
