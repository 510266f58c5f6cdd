/**
 * Mutant trust-any-receipt — any 200/201 body is accepted as success without checking its key,
 * digest, state or receipt. Should break: truthful-outcome.
 */
import { journalFrom, ReferenceRun, type Verdict } from '../reference.js';

class TrustAnyReceipt extends ReferenceRun {
  protected override async judgeReceipt(response: Response, key: string, digest: string): Promise<Verdict> {
    if (response.status !== 200 && response.status !== 201) return super.judgeReceipt(response, key, digest);
    try {
      const body = (await response.json()) as { receipt?: unknown } | null;
      return { state: 'succeeded', receipt: String(body?.receipt ?? '') };
    } catch {
      return { state: 'succeeded', receipt: '' };
    }
  }
}

export const journal = journalFrom('trust-any-receipt', (env, task) => new TrustAnyReceipt(env, task));
