/**
 * JSON pointers (RFC 6901: "" the whole value, "/a/0/b~1c" a path with ~1 for "/" and ~0 for "~")
 * and canonical JSON (object keys sorted, no whitespace): how a contract names a place in a body
 * and when two bodies are the same intent.
 */

/** The tokens of a pointer; undefined when it is not one ("" or starting with "/"). */
export function pointerTokens(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The value at `pointer` in `value`; undefined where there is none. */
export function getAt(value: unknown, pointer: string): unknown {
  let at: unknown = value;
  for (const token of pointerTokens(pointer) ?? []) {
    if (Array.isArray(at)) at = /^(0|[1-9]\d*)$/.test(token) ? at[Number(token)] : undefined;
    else if (typeof at === 'object' && at !== null && Object.hasOwn(at, token)) at = (at as Record<string, unknown>)[token];
    else return undefined;
  }
  return at;
}

/** A copy of `value` with `replacement` at `pointer` (objects and arrays along the way copied); unchanged when the place is missing. */
export function setAt(value: unknown, pointer: string, replacement: unknown): unknown {
  const tokens = pointerTokens(pointer) ?? [];
  const put = (at: unknown, i: number): unknown => {
    if (i === tokens.length) return replacement;
    const token = tokens[i] as string;
    if (Array.isArray(at)) {
      const index = Number(token);
      if (!/^(0|[1-9]\d*)$/.test(token) || index >= at.length) return at;
      const copy = [...at];
      copy[index] = put(at[index], i + 1);
      return copy;
    }
    if (typeof at === 'object' && at !== null && Object.hasOwn(at, token)) return { ...(at as Record<string, unknown>), [token]: put((at as Record<string, unknown>)[token], i + 1) };
    return at;
  };
  return put(value, 0);
}

/** JSON with object keys sorted at every depth and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The body parsed as JSON, or undefined when it is not JSON. */
export function parseJsonBody(body: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(body) as unknown };
  } catch {
    return undefined;
  }
}
