/**
 * The lifecycles, as transition tables. The vocabulary of durasim is defined here; the contract
 * re-exports it. This folder imports nothing of durasim's own.
 *
 * Operation (publish, lookup):
 *   authorized → dispatched                       the intent is durable; then the request may leave
 *   dispatched → succeeded | conflict | failed    a verdict in the same incarnation
 *   dispatched → blocked                          a refusal only a human can lift (403: permission revoked)
 *   dispatched → outcome_unknown                  timeout, 5xx, 202, unreadable or unproven receipt
 *   dispatched | outcome_unknown → reconciling    recovery asks the service before anything else
 *   reconciling → succeeded | conflict | blocked | failed | outcome_unknown
 *   reconciling → dispatched                      a re-send the service promises to replay, or a retry-safe read
 *   dispatched | outcome_unknown → dispatched     a retry-safe call (a lookup, or a write marked retrySafe) is simply
 *                                                 sent again: it has no effect to reconcile (firstSkip's retrySafe)
 *   reconciling → reconciling                     a crash while reconciling, then reconciling again
 *   authorized → blocked | failed                 the intent was never sent and cannot be (e.g. it changed)
 *   authorized | dispatched → cancelled           the task was cancelled before this request ever left
 *   reconciling → cancelled                       ... or reconciling found that it never landed
 *   succeeded, conflict, blocked, failed, cancelled  terminal
 * File delivery (edit):
 *   read → applied | conflict | read              a crash before delivery re-reads
 *   conflict → read | conflict                    rebuild on the user's version; conflict is terminal once attempts run out
 *   applied                                       terminal
 */
export const OPERATION_STATES = ['authorized', 'dispatched', 'succeeded', 'conflict', 'outcome_unknown', 'reconciling', 'blocked', 'failed', 'cancelled'] as const;
export type OperationState = (typeof OPERATION_STATES)[number];

export const FILE_STATES = ['read', 'conflict', 'applied'] as const;
export type FileState = (typeof FILE_STATES)[number];

const OPERATION_TRANSITIONS: Record<OperationState, readonly OperationState[]> = {
  authorized: ['dispatched', 'blocked', 'failed', 'cancelled'],
  dispatched: ['succeeded', 'conflict', 'failed', 'blocked', 'outcome_unknown', 'reconciling', 'cancelled'],
  outcome_unknown: ['reconciling'],
  reconciling: ['succeeded', 'conflict', 'blocked', 'failed', 'outcome_unknown', 'dispatched', 'reconciling', 'cancelled'],
  succeeded: [],
  conflict: [],
  blocked: [],
  failed: [],
  cancelled: [],
};

const FILE_TRANSITIONS: Record<FileState, readonly FileState[]> = {
  read: ['applied', 'conflict', 'read'],
  conflict: ['read', 'conflict'],
  applied: [],
};

export const OPERATION_START: OperationState = 'authorized';
export const FILE_START: FileState = 'read';
export const TERMINAL_OPERATION_STATES: readonly OperationState[] = ['succeeded', 'conflict', 'blocked', 'failed', 'cancelled'];
/** States in which a request may have left and its outcome is not known: recovery must reconcile. */
export const IN_DOUBT_STATES: readonly OperationState[] = ['dispatched', 'outcome_unknown', 'reconciling'];

export function isOperationState(state: string): state is OperationState {
  return (OPERATION_STATES as readonly string[]).includes(state);
}
export function isFileState(state: string): state is FileState {
  return (FILE_STATES as readonly string[]).includes(state);
}

export function allowed(from: OperationState, to: OperationState): boolean {
  return OPERATION_TRANSITIONS[from].includes(to);
}

/** A retry-safe call may also be sent again straight from dispatched or outcome_unknown (no reconciling). */
export function allowedRetrySafe(from: OperationState, to: OperationState): boolean {
  return allowed(from, to) || (to === 'dispatched' && (from === 'dispatched' || from === 'outcome_unknown'));
}

/** The model's transitions as docs/invariants.md shows them (held to it by model/lifecycle.test.ts): a row per state. */
export function transitionTable(): string[] {
  const rows = (kind: string, table: Record<string, readonly string[]>): string[] => Object.entries(table).map(([from, to]) => `| ${kind} | \`${from}\` | ${to.length === 0 ? 'none (terminal)' : to.map((s) => `\`${s}\``).join(', ')} |`);
  return ['| record | from | to |', '|---|---|---|', ...rows('operation', OPERATION_TRANSITIONS), ...rows('file', FILE_TRANSITIONS)];
}

/** The states the model allows after `from` (a retry-safe call may also go back to dispatched). */
export function allowedFrom(kind: 'operation' | 'file', from: string, options: { retrySafe?: boolean } = {}): string[] {
  if (kind === 'file') return isFileState(from) ? [...FILE_TRANSITIONS[from]] : [];
  if (!isOperationState(from)) return [];
  const next: string[] = [...OPERATION_TRANSITIONS[from]];
  if (options.retrySafe && (from === 'dispatched' || from === 'outcome_unknown') && !next.includes('dispatched')) next.push('dispatched');
  return next;
}

export function allowedFile(from: FileState, to: FileState): boolean {
  return FILE_TRANSITIONS[from].includes(to);
}

/** The observed state of a record that existed and is gone (observed histories only). */
export const ABSENT = 'absent';

/** The terminal states of a file delivery: applied, or a conflict left for the user. */
export const TERMINAL_FILE_STATES: readonly FileState[] = ['applied', 'conflict'];

/** The states after which nothing is left to do for a node (terminal, and not blocked for a human): a task whose nodes are all here is finished, and cleans up. */
export const FINISHED_STATES: readonly (OperationState | FileState)[] = ['succeeded', 'conflict', 'failed', 'cancelled', 'applied'];

/**
 * The first place a history leaves the model, or undefined when it is a path in it. An observed
 * history may hold 'absent' (the record was deleted): allowed after a terminal state, and nothing
 * may follow it.
 */
export function firstSkip(kind: 'operation' | 'file', history: readonly string[], options: { retrySafe?: boolean } = {}): { index: number; from: string | null; to: string } | undefined {
  const start = kind === 'operation' ? OPERATION_START : FILE_START;
  const known = kind === 'operation' ? isOperationState : isFileState;
  const step = kind === 'operation' ? (options.retrySafe === true ? allowedRetrySafe : allowed) : allowedFile;
  const terminal: readonly string[] = kind === 'operation' ? TERMINAL_OPERATION_STATES : TERMINAL_FILE_STATES;
  for (let i = 0; i < history.length; i++) {
    const to = history[i] as string;
    const from = i === 0 ? null : (history[i - 1] as string);
    if (from === ABSENT) return { index: i, from, to };
    if (to === ABSENT) {
      if (from === null || !terminal.includes(from)) return { index: i, from, to };
      continue;
    }
    if (!known(to)) return { index: i, from, to };
    if (from === null) {
      if (to !== start) return { index: i, from, to };
      continue;
    }
    if (!(step as (a: string, b: string) => boolean)(from, to)) return { index: i, from, to };
  }
  return undefined;
}
