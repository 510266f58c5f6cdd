/**
 * Error.prepareStackTrace, which Node calls whenever a stack is formatted — for durasim's own
 * errors and for the journal's errors durasim reports too, from no process's turn. A journal's
 * (source-map-support sets one as it loads) is applied only to the stacks formatted in a journal's
 * code, and runs there, in its turn; durasim's own code, Node's, a test runner's and code no turn
 * holds see theirs.
 * Returns the restore callback.
 */
import { isJournalCode, isNoTurn, turnHolder } from './turn.js';

export function guardStackFormat(): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
  /** What durasim's thread (Node, a test runner) set: applied where no journal's code runs. */
  let own: unknown = descriptor === undefined ? undefined : 'value' in descriptor ? descriptor.value : descriptor.get?.call(Error);
  /** What a journal set. */
  let journal: unknown;
  Object.defineProperty(Error, 'prepareStackTrace', {
    configurable: true,
    enumerable: false,
    get: () => {
      const holder = turnHolder();
      return isJournalCode(holder) && !isNoTurn(holder) ? journal : own;
    },
    set: (value: unknown) => {
      if (isJournalCode(turnHolder())) journal = value;
      else own = value;
    },
  });
  return () => {
    if (descriptor) Object.defineProperty(Error, 'prepareStackTrace', descriptor);
    else {
      delete (Error as unknown as Record<string, unknown>).prepareStackTrace;
      if (own !== undefined) (Error as unknown as Record<string, unknown>).prepareStackTrace = own;
    }
  };
}
