/** A rate as a person reads it: whole numbers from 10 a second, one decimal from 1, two significant digits below ("0.046/s", never "0/s"). */
export function perSecond(count: number, seconds: number): string {
  const rate = count / Math.max(0.001, seconds);
  if (rate >= 10) return `${rate.toFixed(0)}/s`;
  if (rate >= 1) return `${rate.toFixed(1)}/s`;
  return rate === 0 ? '0/s' : `${Number(rate.toPrecision(2))}/s`;
}
