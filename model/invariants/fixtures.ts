/** Hand-built evidence for the invariant tests: a small run of one publish key 'a'. */
import { HistoryObserver } from '../observedHistory.js';
import type { CrashEvidence, EffectEvidence, JudgeInput, OperationHistory, OperationSpec, Records, RequestEvidence } from '../evidence.js';

export const D1 = 'a1'.repeat(32);
export const D2 = 'b2'.repeat(32);

export function op(history: string[], extra: Partial<OperationHistory> = {}): OperationHistory {
  return { kind: 'operation', history, digest: D1, ...extra };
}

export function effect(key: string, digest: string, receipt: string, seq: number, requestIndex: number | null = 0): EffectEvidence {
  return { key, digest, receipt, atMs: 0, requestIndex, seq };
}

export function post(index: number, key: string, digest: string, seq: number, recordsAtArrival?: Records): RequestEvidence {
  const request: RequestEvidence = { index, atMs: 0, method: 'POST', route: { kind: 'publish', key }, digest, status: 201, seq };
  if (recordsAtArrival) request.recordsAtArrival = recordsAtArrival;
  return request;
}

export function query(index: number, key: string, seq: number): RequestEvidence {
  return { index, atMs: 0, method: 'GET', route: { kind: 'query', key }, status: 200, seq };
}

export function crash(seq: number, records: Records, visible: Records = records, survivors: string[] = [], killed: string[] = []): CrashEvidence {
  return { seq, timeMs: 0, records, visible, survivors, killed };
}

/** A run: one publish 'a' by default, ending completed at trace position 99. */
export function run(patch: Partial<Omit<JudgeInput, 'scenario'>> & { operations?: OperationSpec[]; scenario?: Partial<JudgeInput['scenario']>; service?: Partial<JudgeInput['scenario']['service']> } = {}): JudgeInput {
  const { operations, scenario, service, ...rest } = patch;
  return {
    scenario: {
      task: { operations: operations ?? [{ kind: 'publish', key: 'a', body: 'body one' }] },
      service: { idempotencyMemory: 'durable', query: true, resources: { config: 'v1' }, ...service },
      faults: [],
      ...scenario,
    },
    outcome: { kind: 'completed' },
    trace: Array.from({ length: 100 }, (_, seq) => ({ seq, actor: 'worker-0', op: 'clock.now', detail: '' })),
    effects: [],
    requests: [],
    crashes: [],
    userEdits: [],
    final: { durable: {}, visible: {}, files: {} },
    observed: {},
    ...rest,
  };
}

/** A run whose observed histories are derived from its crash and final images, as the world would observe them. */
export function observedRun(patch: Parameters<typeof run>[0] = {}): JudgeInput {
  const input = run(patch);
  const observer = new HistoryObserver();
  for (const c of input.crashes) {
    observer.observe(c.records, c.seq, 'durable');
    observer.observe(c.visible, c.seq, 'visible');
  }
  observer.observe(input.final.durable, input.trace.length - 1, 'durable');
  observer.observe(input.final.visible, input.trace.length - 1, 'visible');
  return { ...input, observed: observer.observed };
}

/** Both final images set to the same records. */
export function finalRecords(records: Records, files: Record<string, string | undefined> = {}): JudgeInput['final'] {
  return { durable: records, visible: records, files };
}
