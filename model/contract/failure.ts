/**
 * The one message style of durasim: `Failed to <action>: <reason>. <fix>`.
 * Every user-facing error is built here so the wording stays uniform.
 */
export function failureMessage(action: string, reason: string, fix: string): string {
  const trimmedReason = reason.trim().replace(/\.+$/, '');
  const trimmedFix = fix.trim();
  const fixSentence = /[.!?]$/.test(trimmedFix) ? trimmedFix : `${trimmedFix}.`;
  return `Failed to ${action}: ${trimmedReason}. ${fixSentence}`;
}

/** An error whose message follows the house style; `action`, `reason` and `fix` stay readable. */
export class DurasimError extends Error {
  readonly action: string;
  readonly reason: string;
  readonly fix: string;
  constructor(action: string, reason: string, fix: string) {
    super(failureMessage(action, reason, fix));
    this.name = 'DurasimError';
    this.action = action;
    this.reason = reason;
    this.fix = fix;
  }
}
