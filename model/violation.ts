/**
 * Violations are data. Text is derived from them (see describeViolation), never the other way.
 */
import { maskSecrets } from './contract/secret.js';

export const INVARIANTS = [
  { code: 'one-effect-per-key', kind: 'safety', summary: 'the service holds at most one effect per key, and none whose digest differs from the authorized intent' },
  { code: 'single-flight', kind: 'safety', summary: 'at most one write per key is in flight at the service at any moment, whatever its idempotency (two owners of one key)' },
  { code: 'no-silent-overwrite', kind: 'safety', summary: "every user edit survives in the final file, or a conflict was recorded with the user's text preserved" },
  { code: 'no-state-skip', kind: 'safety', summary: 'the states of every key, as recorded and as observed on the durable image after each change, are a path in the model; recovery from dispatched or outcome_unknown passes through reconciling' },
  { code: 'file-truth', kind: 'safety', summary: "a file recorded applied holds its base plus the edit, unless the user saved it later; a delivery never leaves a file empty, torn or without its original text (durable image after every crash, and at the end)" },
  { code: 'write-ahead', kind: 'safety', summary: 'when a request reaches the service, the durable records already hold authorized and dispatched for it, with its digest' },
  { code: 'truthful-outcome', kind: 'safety', summary: 'succeeded, conflict and never-dispatched claims match the service and the files, after every crash and at the end' },
  { code: 'recorded-intent-wins', kind: 'safety', summary: "receipts are judged against the journal's recorded digest, never a later incarnation's arguments" },
  { code: 'no-blind-retry', kind: 'safety', summary: 'an in-doubt write is never re-sent under another key, and under the same key only when the service promises replay' },
  { code: 'completed-replayed', kind: 'safety', summary: 'an operation recorded succeeded is never executed again' },
  { code: 'retry-safe-only', kind: 'safety', summary: 'a write found in doubt after a crash is reconciled (queried) or blocked before any re-send' },
  { code: 'single-advancer', kind: 'safety', summary: "the task's checkpoint advances at most once from each version, and only by the holder of the task's lease on the store's clock" },
  { code: 'fenced-effects', kind: 'safety', summary: "with the task's lease in use, every effect carries a fencing token the store granted to its sender" },
  { code: 'cas-loser-stops', kind: 'safety', summary: "a worker whose compare-and-set on the task's checkpoint was refused sends no further write" },
  { code: 'takeover-exclusive', kind: 'safety', summary: "from an operator's takeover to its handback, no agent worker writes to the service or advances the task" },
  { code: 'projection-consistent', kind: 'safety', summary: "every projection of the task written to the store folds events that are there: as many as it claims, with its digest" },
  { code: 'no-secret-persisted', kind: 'safety', summary: "the task's access token never lands in a file, a file name or the shared store" },
  { code: 'failure-class-respected', kind: 'safety', summary: 'a 400 is never retried, a 403 pauses the task, a 503 is retried only after the wait it asked for and never taken for a failure' },
  { code: 'retry-budget', kind: 'safety', summary: "the task's retry budget holds at the service: POSTs per operation and in all, across every restart and worker" },
  { code: 'no-effect-after-cancel', kind: 'safety', summary: "once the task is cancelled no new write leaves: the journal looks at the cancel before every send" },
  { code: 'cancel-truth', kind: 'safety', summary: 'an operation recorded cancelled has no effect at the service: what happened stays recorded as happened' },
  { code: 'version-change-pauses', kind: 'safety', summary: 'a node planned from a version of a source is not sent once the source changed: the task pauses for replanning' },
  { code: 'cleanup-owned-only', kind: 'safety', summary: "a task's cleanup never deletes, moves or rewrites another task's temp file in the folder they share" },
  { code: 'routed-requests', kind: 'safety', summary: "every request the journal sends reaches the service, at the url the task names, on a route the service has (a contract may name routes out of scope)" },
  { code: 'fault-free-effects', kind: 'safety', summary: 'in a run without any fault, every publish the journal ends in a final state has its effect at the service, unless the service said why not' },
  { code: 'evidence-retained', kind: 'safety', summary: "once the durable records hold a write's receipt they keep it, through every crash and cleanup, to the end" },
  { code: 'convergence', kind: 'liveness', summary: 'after the last fault every operation reaches a terminal state within the bounds, and a finished task leaves no temp file behind' },
  { code: 'journal-error', kind: 'liveness', summary: 'no incarnation ends by an error of its own (an uncaught exception or rejection, a non-zero exit) before any fault was injected: a bug, not a recovery' },
] as const;

export type InvariantCode = (typeof INVARIANTS)[number]['code'];
export const INVARIANT_CODES: readonly InvariantCode[] = INVARIANTS.map((i) => i.code);

export interface Violation {
  code: InvariantCode;
  /** The operation key (or file path) it concerns; '' when it concerns the whole run. */
  key: string;
  /** The trace position where it shows. */
  step: number;
  expected: string;
  actual: string;
  /** Structured facts behind it: histories, effects, requests. */
  evidence: Record<string, unknown>;
}

export function invariantKind(code: InvariantCode): 'safety' | 'liveness' {
  return INVARIANTS.find((i) => i.code === code)?.kind ?? 'safety';
}

export function describeViolation(v: Violation): string {
  return maskSecrets(`${v.code}${v.key ? ` [${v.key}]` : ''} at #${v.step}: expected ${v.expected}; actual ${v.actual}`);
}
