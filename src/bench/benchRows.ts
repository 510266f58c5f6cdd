/**
 * reports/bench.json holds one row per Node line: `npm run bench` on Node 24 writes the row "24"
 * and keeps the others (a file of the shape before, one report, becomes the row of the line it
 * names). The figures of two lines are comparable only as far as their machines and days were.
 */

/** The line of a Node version: "v24.22.3" → 24. */
export const nodeLine = (version: string): number => Number.parseInt(version.replace(/^v/, ''), 10);

/** `existing` (the file's JSON, or undefined) with `report` as the row of its line, rows in line order. */
export function withRow(existing: unknown, report: { node: string }): Record<string, unknown> {
  const rows: Record<string, unknown> = {};
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) {
    const old = existing as Record<string, unknown>;
    if (typeof old.node === 'string') rows[String(nodeLine(old.node))] = old;
    else Object.assign(rows, old);
  }
  rows[String(nodeLine(report.node))] = report;
  return Object.fromEntries(Object.entries(rows).sort(([a], [b]) => Number(a) - Number(b)));
}
