/**
 * durasim's own failure, said in the house style (what failed, why, the fix): exit 5, never 2 —
 * a DurasimError is the user's input at fault (exit 2), this one durasim itself (a file of its
 * package missing, a thread of its own that cannot start), never a finding about the journal.
 */
import { DurasimError } from '../model/contract/failure.js';

export class OwnFailure extends DurasimError {}

/** The fix when a file of durasim's own is missing or fails as it loads. */
export const REINSTALL = 'Reinstall durasim (npm install durasim; in a clone of its repository, npm install and git checkout the file); if it fails again, report it with the command line you ran';
