/**
 * The I/O error armed for one worker step: the first disk call in the step takes it (and only
 * that one), and the slot remembers what it did for the trace.
 */
import { ioError, type IoErrorCode } from './ioError.js';

/** An I/O error armed for the next disk call of one worker step. */
export interface ArmedIoFault {
  error: IoErrorCode;
  /** A write's bytes stored before it fails (a short write; clamped below the write's length). */
  writtenBytes?: number;
}

export class IoFaultSlot {
  private armed: ArmedIoFault | undefined;
  private effect: string | undefined;

  arm(fault: ArmedIoFault): void {
    this.armed = fault;
    this.effect = undefined;
  }

  /** Arms `fault` (if any) for one step of `op`; the function returned ends it, once, and reports what it did. */
  armFor(fault: ArmedIoFault | undefined, op: string, report: (detail: string) => void): () => void {
    if (fault === undefined) return NOTHING_ARMED;
    this.arm(fault);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      report(this.disarm() ?? `${fault.error} did nothing: ${op} makes no disk call`);
    };
  }

  /** Ends the step's fault; says what it did (undefined: the step made no disk call). */
  disarm(): string | undefined {
    const effect = this.effect;
    this.armed = undefined;
    this.effect = undefined;
    return effect;
  }

  /** A write's fault, if one is armed (not yet taken). */
  get pending(): ArmedIoFault | undefined {
    return this.armed;
  }

  /** Takes the armed fault, if any, noting what it did. */
  take(effect: string): ArmedIoFault | undefined {
    const fault = this.armed;
    if (fault === undefined) return undefined;
    this.armed = undefined;
    this.effect = `${fault.error}: ${effect}`;
    return fault;
  }

  /** A call that fails whole: throws the armed error, if any, before the call does anything. */
  failIfArmed(syscall: string, path: string): void {
    const fault = this.take(`${syscall} of ${path} failed and did nothing`);
    if (fault) throw ioError(fault.error, syscall, path);
  }
}

const NOTHING_ARMED = (): void => {};
