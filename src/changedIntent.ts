/**
 * The intent family's changed body: the same operation with another intent, in the body's own
 * format — what a later incarnation is handed after a restart (`taskAfterRestart`).
 *
 * - A JSON body (an object, an array or a bare value) gets one value changed and stays JSON, in its
 *   own layout (compact, or indented as it was): a number moves by one, a string moves on a version
 *   (`v1` → `v2`) or gains " (changed)", a boolean flips. Which value is the `pick`-th of those the
 *   intent is made of, in document order: never the idempotency key where a contract carries it in
 *   the body, and, under a contract whose intent is listed JSON pointers, one at (or below) them —
 *   so the change is another intent as the service judges it. A body with no such value gains a
 *   field (`"changed": true`) or an item.
 * - A form-encoded body (`a=1&b=two`) gets one field's value changed (the `pick`-th), the other
 *   fields' text as it was.
 * - Any other text: the first `v1` becomes `v2`, or `plainSuffix` is appended (as it always was).
 */
import type { ServiceContract } from '../simulator/contract/contract.js';
import { getAt, parseJsonBody, setAt } from '../simulator/contract/jsonPointer.js';

export interface IntentChange {
  /** Which of the candidate values (or form fields) changes: taken modulo their number. */
  pick?: number;
  /** The user's contract, if any: where the key travels in the body, and what the intent is made of. */
  contract?: ServiceContract | undefined;
  /** What plain text gains when it names no `v1`. */
  plainSuffix: string;
}

const FORM = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;

/** The body with another intent, in its own format. */
export function changedIntent(body: string, change: IntentChange): string {
  const pick = change.pick ?? 0;
  const parsed = parseJsonBody(body);
  if (parsed !== undefined) return changedJson(body, parsed.value, pick, change.contract);
  if (FORM.test(body)) return changedForm(body, pick);
  return body.includes('v1') ? body.replace('v1', 'v2') : `${body}${change.plainSuffix}`;
}

/** A string moved on: its version, or marked changed. */
function changedText(text: string): string {
  return text.includes('v1') ? text.replace('v1', 'v2') : `${text} (changed)`;
}

function changedValue(value: string | number | boolean): string | number | boolean {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1 !== value ? value + 1 : -value || 1;
  return changedText(value);
}

const escape = (token: string): string => token.replaceAll('~', '~0').replaceAll('/', '~1');

/** The pointers of every string, number and boolean in a JSON value, in document order. */
function leaves(value: unknown, at = ''): string[] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [at];
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, `${at}/${i}`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => leaves(item, `${at}/${escape(key)}`));
  return [];
}

/** Whether `pointer` is `prefix` or below it. */
function within(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}

function changedJson(text: string, value: unknown, pick: number, contract: ServiceContract | undefined): string {
  const effects = contract?.effects ?? [];
  const keys = effects.flatMap((e) => ('body' in e.key ? [e.key.body] : []));
  const listed = effects.length > 0 && effects.every((e) => typeof e.intent === 'object') ? effects.flatMap((e) => (typeof e.intent === 'object' ? e.intent.pointers : [])) : undefined;
  const candidates = leaves(value).filter((p) => !keys.some((k) => within(p, k)) && (listed === undefined || listed.some((l) => within(p, l))));
  let changed: unknown;
  if (candidates.length > 0) {
    const at = candidates[pick % candidates.length] as string;
    changed = setAt(value, at, changedValue(getAt(value, at) as string | number | boolean));
  } else if (Array.isArray(value)) changed = [...value, true];
  else if (typeof value === 'object' && value !== null) changed = { ...value, changed: true };
  else changed = 'changed';
  return layout(text, changed);
}

/** JSON text of `value` laid out as `text` is: compact, or indented as its first indented line, with its trailing newline. */
function layout(text: string, value: unknown): string {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  const out = JSON.stringify(value, null, indent);
  return /\n$/.test(text) ? `${out}\n` : out;
}

function changedForm(body: string, pick: number): string {
  const pairs = body.split('&');
  const i = pick % pairs.length;
  const [name, raw] = (pairs[i] as string).split('=') as [string, string];
  let value: string;
  try {
    value = decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    value = raw;
  }
  const next = /^-?\d+$/.test(value) ? String(Number(value) + 1) : changedText(value);
  pairs[i] = `${name}=${new URLSearchParams([['', next]]).toString().slice(1)}`;
  return pairs.join('&');
}

/** Whether a body is one `changedIntent` changes in its own format (JSON or form-encoded), not as plain text. */
export function structuredBody(body: string): boolean {
  return parseJsonBody(body) !== undefined || FORM.test(body);
}
