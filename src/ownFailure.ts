/**
 * durasim's own failure, said in the house style (what failed, why, the fix): exit 5, never 2 —
 * a DurasimError is the user's input at fault (exit 2), this one durasim itself (a file of its
 * package missing, a thread of its own that cannot start), never a finding about the journal.
 */
import { DurasimError } from '../model/contract/failure.js';

export class OwnFailure extends DurasimError {}
