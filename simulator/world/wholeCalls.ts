/**
 * The whole call behind a trace entry whose data the trace shows cut short (trace.ts preview: the
 * first 120 characters), for reports: a timeline cell opens onto it. Kept beside the trace, never in
 * it (the trace and its hash stay as they are).
 *
 * The bytes a step wrote are in the run's payload (Recorder.notePayload), tagged with the trace's
 * length when they were written: after the step's entry, later when a pause held the step. A chunk
 * belongs to the earliest entry before its tag, not yet matched, whose preview is the chunk's own.
 * Each whole call keeps its first WHOLE_CALL_CHARS characters of data, the rest counted.
 */
import { preview, type TraceEntry } from './trace.js';

/** The most characters of one call's data a report opens onto. */
export const WHOLE_CALL_CHARS = 4_000;

/** Per trace position, the entry's detail with its cut preview replaced by the whole data (JSON-quoted, secrets masked as in the trace). */
export function wholeCalls(trace: readonly TraceEntry[], payload: readonly (string | Uint8Array)[], mask: (text: string) => string): Record<number, string> {
  // The entries whose detail ends in a cut preview, by that preview, in trace order.
  const waiting = new Map<string, number[]>();
  for (const entry of trace) {
    if (entry.step === undefined || !entry.detail.endsWith('…"')) continue;
    const at = entry.detail.indexOf(' "');
    if (at < 0) continue;
    const shown = entry.detail.slice(at + 1);
    waiting.set(shown, [...(waiting.get(shown) ?? []), entry.seq]);
  }
  const whole: Record<number, string> = {};
  if (waiting.size === 0) return whole;
  for (let i = 0; i + 1 < payload.length; i += 2) {
    const tag = Number.parseInt(String(payload[i]), 10);
    const chunk = payload[i + 1] as string | Uint8Array;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    if (text.length <= 100) continue; // shown whole in the trace
    const seqs = waiting.get(mask(preview(text)));
    const index = seqs?.findIndex((seq) => seq < tag) ?? -1;
    if (seqs === undefined || index < 0) continue;
    const seq = seqs.splice(index, 1)[0] as number;
    const entry = trace[seq] as TraceEntry;
    const kept = mask(text.length > WHOLE_CALL_CHARS ? text.slice(0, WHOLE_CALL_CHARS) : text);
    const more = text.length > WHOLE_CALL_CHARS ? ` … (${text.length - WHOLE_CALL_CHARS} more characters)` : '';
    whole[seq] = `${entry.detail.slice(0, entry.detail.indexOf(' "'))} ${JSON.stringify(kept)}${more}`;
  }
  return whole;
}
