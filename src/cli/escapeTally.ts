/** The sandbox line of a finding: what follows the first escape's message. */
/** After the first escape's message: how often that call was made, and which other calls escaped (each named once). */
export function escapeTally(escapes: readonly { api: string }[]): string {
  const first = escapes[0]?.api;
  const again = escapes.filter((e) => e.api === first).length;
  const rest = escapes.filter((e) => e.api !== first);
  const others = [...new Set(rest.map((e) => e.api))];
  const parts = [again > 1 ? `${first} was called ${again} times` : '', others.length > 0 ? `${rest.length} more escape${rest.length === 1 ? '' : 's'} through ${others.join(', ')}` : ''].filter(Boolean);
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}
