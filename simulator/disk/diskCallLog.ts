/**
 * What a journal's calls changed on a Disk, one entry per change, in order: a file created or
 * truncated, bytes written, an fsync of a file or a folder, a name made or removed. Reads, opens
 * that change nothing and closes are not in it. The same log is kept by the simulation and by a
 * confirmation's replay of the real system calls (src/confirm/realDisk.ts): where the two differ
 * for the same worker step, durasim's model of Node differs from Node.
 */

export type DiskCall =
  | { op: 'create' | 'unlink' | 'mkdir' | 'rmdir' | 'fsync'; path: string }
  | { op: 'truncate'; path: string; size: number }
  | { op: 'write'; path: string; at: number; bytes: Uint8Array }
  | { op: 'rename' | 'link'; path: string; to: string };

/** A change with the worker step that made it ("worker-0#1 step 3 fs.rename"; '' before any). */
export interface MarkedDiskCall {
  mark: string;
  call: DiskCall;
}

/**
 * One change as both sides show it: `text` for people, `key` to compare. The key leaves out what a
 * journal may write differently from run to run without Node behaving otherwise — the bytes, their
 * count and offset (a timestamp, a duration) — and keeps which call changed which name or file how.
 */
export interface DiskCallLine {
  mark: string;
  text: string;
  key: string;
  /** The key's parts: the call, the names it touches (a rename's or link's source, then its target), and what follows them (a truncate's size). */
  op: DiskCall['op'];
  paths: string[];
  tail: string;
}

const preview = (bytes: Uint8Array): string => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return JSON.stringify(text.length > 48 ? `${text.slice(0, 48)}…` : text);
};

/**
 * The log as lines: writes one after another to the same file in the same step merged into one
 * (Node may split a write into several calls, or make one of several chunks).
 */
export function diskCallLines(calls: readonly MarkedDiskCall[]): DiskCallLine[] {
  const lines: DiskCallLine[] = [];
  let run: { mark: string; path: string; at: number; end: number; parts: Uint8Array[] } | undefined;
  const flush = (): void => {
    if (!run) return;
    const bytes = Buffer.concat(run.parts);
    const text = `write ${run.path} ${bytes.length} bytes at ${run.at} ${preview(bytes)}`;
    lines.push({ mark: run.mark, text, key: `write ${run.path}`, op: 'write', paths: [run.path], tail: '' });
    run = undefined;
  };
  for (const { mark, call } of calls) {
    if (call.op === 'write') {
      if (run && run.mark === mark && run.path === call.path && run.end === call.at) {
        run.parts.push(call.bytes);
        run.end += call.bytes.length;
        continue;
      }
      flush();
      run = { mark, path: call.path, at: call.at, end: call.at + call.bytes.length, parts: [call.bytes] };
      continue;
    }
    flush();
    const text = call.op === 'truncate' ? `truncate ${call.path} to ${call.size}` : call.op === 'rename' || call.op === 'link' ? `${call.op} ${call.path} → ${call.to}` : `${call.op} ${call.path}`;
    const paths = call.op === 'rename' || call.op === 'link' ? [call.path, call.to] : [call.path];
    const tail = call.op === 'truncate' ? ` to ${call.size === 0 ? 0 : 'a shorter or longer size'}` : '';
    lines.push({ mark, text, key: `${call.op} ${paths.join(' → ')}${tail}`, op: call.op, paths, tail });
  }
  flush();
  return lines;
}
