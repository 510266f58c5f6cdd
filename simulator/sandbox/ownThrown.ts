/**
 * A value the journal threw (or rejected with), as durasim keeps it: read once, in the journal's
 * turn (call it there), into a value of durasim's own — an Error with the thrown one's name,
 * message, stack and code as strings; a primitive as it is; any other object a record of its text
 * and code. Whatever getter, toString or Proxy trap of the journal's these reads run, they run as
 * its code, not later inside durasim's (where no turn holds).
 */
export function ownThrown(value: unknown): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value;
  try {
    const code = (value as { code?: unknown }).code;
    const ownCode = typeof code === 'string' ? { code } : {};
    if (!(value instanceof Error)) {
      const text = String(value);
      return { ...ownCode, toString: () => text };
    }
    const name = String(value.name);
    const message = String(value.message);
    const stack = value.stack;
    const own = Object.assign(new Error(message), ownCode);
    own.name = name;
    own.stack = typeof stack === 'string' ? stack : `${name}: ${message}`;
    return own;
  } catch {
    return new Error('a thrown value whose reading threw');
  }
}
