// i06 — a reconciling lookup is resumed only through the process's retry queue that holds it.
// Place: the `parsers` FreeList of node:_http_common (the module-level cache of HTTP parser objects). Written
// between two attempts of a lookup: before a lookup's `reconciling` record (after an unanswered read: a timeout,
// a 500, a garbled answer), the lookup is entered in the process's retry queue. Read by the recovery of a lookup
// whose last record is `reconciling`: crash between two attempts, during the backoff after an unanswered read
// (outcome_unknown and reconciling recorded, the next dispatched not yet). Without the memory (a real crash) no
// queue of this process holds the lookup, so it is left to "the call whose queue holds it" (two calls never retry
// one read) — and nobody ever resumes it: the task ends with the lookup reconciling.
// Should break: convergence (an operation ends non-terminal).
import { parsers } from 'node:_http_common';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const RETRY_QUEUE = Symbol.for('blind7.i06.lookupRetryQueue');

/** The process's retry queue of lookups waiting for their next attempt. */
export function memory() {
  if (!Object.hasOwn(parsers, RETRY_QUEUE)) Object.defineProperty(parsers, RETRY_QUEUE, { value: new Set() });
  return parsers[RETRY_QUEUE];
}

class LookupRetryQueue extends ReferenceRun {
  isLookup(key) {
    return this.task.operations.some((op) => op.kind === 'lookup' && op.key === key);
  }

  retryId(key, digest) {
    return `${this.task.id}|${key}|${digest}`;
  }

  /** A lookup's retry is queued before its reconciling record. */
  async record(r) {
    if (r.state === 'reconciling' && this.isLookup(r.key)) memory().add(this.retryId(r.key, r.digest));
    return super.record(r);
  }

  async lookup(op) {
    const last = this.last(op.key);
    // Between two attempts: its retry belongs to the queue that holds it; another call does not retry the same read.
    if (last?.state === 'reconciling' && !memory().has(this.retryId(op.key, last.digest))) return;
    return super.lookup(op);
  }
}

export default journalFrom('i06-lookup-retry-queue', (env, task) => new LookupRetryQueue(env, task));
