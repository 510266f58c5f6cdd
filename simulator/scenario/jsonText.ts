/**
 * The one JSON reader of durasim's inputs: scenarios, regressions, durasim.config.json, merge's
 * summaries. JSON.parse alone takes too much:
 * - A nesting deeper than SCENARIO_LIMITS.depth is refused by a scan of the text before JSON.parse
 *   runs and before anything recurses over the value (a 50,000-deep value once overflowed the stack
 *   of the code that quoted it in a message).
 * - A key given twice in one object is refused, naming the key and where it is: JSON.parse keeps
 *   the last silently, so the file would mean something its reader does not see.
 * - A leading UTF-8 byte-order mark (as some Windows editors write) is skipped.
 */
import { SCENARIO_LIMITS } from './scenarioLimits.js';

/** What is wrong with a JSON text, as a phrase that follows the file's name ("… is not valid JSON (…)"). */
export class JsonTextError extends Error {
  /** JSON.parse's own message, when the text is not JSON at all. */
  readonly syntax: string | undefined;
  constructor(reason: string, syntax?: string) {
    super(reason);
    this.name = 'JsonTextError';
    this.syntax = syntax;
  }
}

const BOM = 0xfeff;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

type Frame = { kind: 'object'; keys: Set<string>; key: string | undefined } | { kind: 'array'; index: number };

/** A key or path as a message quotes it: cut to 60 characters, with its length, when longer. */
function cut(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 40)}… (${text.length} characters)`;
}

/** Where a value is, as a scenario's fields are named: `faults[2].at`, `env`. */
function pathOf(frames: readonly Frame[]): string {
  let path = '';
  for (const frame of frames) {
    if (frame.kind === 'array') path += `[${frame.index}]`;
    else if (frame.key !== undefined) path += /^[A-Za-z_$][\w$]*$/.test(frame.key) ? `${path === '' ? '' : '.'}${frame.key}` : `[${JSON.stringify(frame.key)}]`;
  }
  return cut(path);
}

/**
 * One pass over the text: refuses a nesting deeper than `depthLimit` at once; returns the first key
 * given twice in one object (said after JSON.parse has had its say on the syntax). Tolerant of text
 * that is not JSON: JSON.parse refuses that next.
 */
function scan(text: string, depthLimit: number): string | undefined {
  const frames: Frame[] = [];
  let expectKey = false;
  let duplicate: string | undefined;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else if (d === QUOTE) break;
        else j++;
      }
      const top = frames[frames.length - 1];
      if (expectKey && top?.kind === 'object') {
        let key = text.slice(i + 1, j);
        if (escaped) {
          try {
            key = JSON.parse(text.slice(i, j + 1)) as string;
          } catch {
            // not a JSON string: JSON.parse says so next
          }
        }
        if (duplicate === undefined && top.keys.has(key)) {
          const where = frames.length === 1 ? 'at the top level' : `in ${pathOf(frames.slice(0, -1))}`;
          duplicate = `has the key ${JSON.stringify(cut(key))} twice, ${where}`;
        }
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (frames.length >= depthLimit) {
        throw new JsonTextError(`nests arrays and objects more than ${depthLimit} deep (at character ${i + 1}), over the limit of ${depthLimit}`);
      }
      frames.push(c === OPEN_OBJECT ? { kind: 'object', keys: new Set(), key: undefined } : { kind: 'array', index: 0 });
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      frames.pop();
      expectKey = false;
    } else if (c === COMMA) {
      const top = frames[frames.length - 1];
      if (top?.kind === 'object') expectKey = true;
      else if (top !== undefined) top.index++;
    }
  }
  return duplicate;
}

/** The value of a JSON text from a file: a leading byte-order mark skipped, its nesting bounded, every key once. */
export function parseJsonText(text: string, depthLimit: number = SCENARIO_LIMITS.depth): unknown {
  const body = text.charCodeAt(0) === BOM ? text.slice(1) : text;
  const duplicate = scan(body, depthLimit);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new JsonTextError(`is not valid JSON (${message})`, message);
  }
  if (duplicate !== undefined) throw new JsonTextError(duplicate);
  return value;
}
