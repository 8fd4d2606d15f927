/**
 * The most of `times` (ms, in any order) within any one second, a window [t, t + 1 s) from one of them: how a carrier
 * counting calls per second sees their starts. The pace's tests and the batch bench both count with it.
 */
export function mostInOneSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
