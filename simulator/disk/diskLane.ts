/**
 * The disk lane of a report: after every trace entry that changed the disk, each file of the work
 * folder as processes see it (page cache included) and as it would survive a machine crash (the
 * durable image). Recorded only when asked (a report's run), never on the hot path of a search.
 */
export interface DiskFileState {
  /** Relative to the work folder. */
  path: string;
  /** Bytes processes see; absent when only the durable image still has the file. */
  visibleBytes?: number;
  /** Bytes a machine crash now would keep; absent when the file is not durable at all. */
  durableBytes?: number;
  /** True when what processes see is exactly what is durable. */
  synced: boolean;
}

export interface DiskLaneState {
  /** The trace entry after which the disk looked like this. */
  seq: number;
  files: DiskFileState[];
}

/** Notes the disk after each trace entry, keeping a state only when it differs from the last one. */
export class DiskLane {
  readonly states: DiskLaneState[] = [];
  private last = '';

  constructor(private readonly read: () => DiskFileState[]) {}

  note(seq: number): void {
    if (seq < 0) return;
    const files = this.read();
    const key = JSON.stringify(files);
    if (key === this.last) return;
    this.last = key;
    this.states.push({ seq, files });
  }
}
