/**
 * A stack a journal reads under its turn holds its own frames and Node's, never durasim's: the
 * journal's files are under /journal (simulatedMachine.ts JOURNAL_ROOT: src/isolation compiles them
 * there), Node's are node:…, and a frame in any other file — durasim's machinery below and between
 * the journal's calls, wherever it is installed — is left out. So a stack the journal writes to a
 * file, sends or logs is the same on every machine and in every folder. Error.prepareStackTrace
 * under a turn is the formatter Node would use, handed those frames; one the journal sets is its
 * own (its incarnation's), handed the same frames. Outside a turn — and in durasim's own work
 * (a machinery runner) or code no turn holds in a closed thread (sandbox/turn.ts: a finalizer, a
 * message listener, durasim formatting an error it caught) — it is what durasim's thread set: a
 * journal's formatter runs only in that journal's turn, for the stacks formatted there, and one set
 * by code no turn holds applies nowhere. Returns restore callbacks.
 */
import { JOURNAL_ROOT } from './simulatedMachine.js';
import { isJournalCode, isNoTurn, turnHolder, type TurnHolder } from './turn.js';

type Restore = () => void;
type Format = (error: Error, frames: NodeJS.CallSite[]) => unknown;

const ROOTS = [`${JOURNAL_ROOT}/`, `file://${JOURNAL_ROOT}/`];

/** Whether a frame is the journal's or Node's (or has no file: native, eval). */
function shown(frame: NodeJS.CallSite): boolean {
  let file: unknown;
  try {
    file = frame.getFileName();
  } catch {
    return true;
  }
  if (typeof file !== 'string' || !(file.startsWith('/') || file.startsWith('file:'))) return true;
  return ROOTS.some((root) => file.startsWith(root));
}

function ownFrames(frames: unknown): unknown {
  return Array.isArray(frames) ? (frames as NodeJS.CallSite[]).filter(shown) : frames;
}

/** Node's own formatting without a formatter to call (a Node without Error.prepareStackTrace's default). */
function nodeLike(error: Error, frames: NodeJS.CallSite[]): string {
  const code = (error as { code?: unknown }).code;
  const header = typeof code === 'string' && code.startsWith('ERR_') ? `${error.name} [${code}]: ${error.message}` : Error.prototype.toString.call(error);
  return frames.length === 0 ? header : `${header}\n    at ${frames.join('\n    at ')}`;
}

export function guardStacks(): Restore[] {
  const descriptor = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
  if (descriptor !== undefined && !descriptor.configurable) return [];
  let real = descriptor && 'value' in descriptor ? (descriptor.value as unknown) : undefined;
  const own = new WeakMap<TurnHolder, unknown>();
  const wrapped = new WeakMap<object, Format>();
  const journalFormat = (format: Format): Format => {
    let made = wrapped.get(format);
    if (made === undefined) {
      made = (error, frames) => format(error, ownFrames(frames) as NodeJS.CallSite[]);
      wrapped.set(format, made);
      wrapped.set(made, made);
    }
    return made;
  };
  const defaultFormat: Format = (error, frames) => (typeof real === 'function' ? (real as Format)(error, ownFrames(frames) as NodeJS.CallSite[]) : nodeLike(error, ownFrames(frames) as NodeJS.CallSite[]));
  wrapped.set(defaultFormat, defaultFormat);
  Object.defineProperty(Error, 'prepareStackTrace', {
    configurable: true,
    enumerable: descriptor?.enumerable ?? false,
    get() {
      const holder = turnHolder();
      if (holder === null || !isJournalCode(holder) || isNoTurn(holder)) return real;
      const set = own.get(holder);
      // None of its own (or not a function, which Node would pass over for its internal one): Node's, with the shown frames.
      return typeof set === 'function' ? journalFormat(set as Format) : defaultFormat;
    },
    set(value: unknown) {
      const holder = turnHolder();
      if (holder === null || !isJournalCode(holder)) real = value;
      // One of ours given back (saved, then restored): what it stands for.
      else own.set(holder, value === defaultFormat ? real : value);
    },
  });
  return [() => (descriptor ? Object.defineProperty(Error, 'prepareStackTrace', { ...descriptor, ...('value' in descriptor ? { value: real } : {}) }) : delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace)];
}
