import { createHash } from 'node:crypto';

/** The argument digest used by the fake service and the bundled journals: SHA-256 of the bytes, hex. */
export function digestOf(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
