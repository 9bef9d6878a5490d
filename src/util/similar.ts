/** "Did you mean": the names closest to a mistyped word, as a list (src/util/suggest.ts words it for help). */
import { distance } from './suggest.js';

/** The names closest to `word` (ties all kept), within 40% of a name's length in edits; none when nothing is close. */
export function closest(word: string, names: readonly string[]): string[] {
  let best: string[] = [];
  let bestD = Infinity;
  for (const n of names) {
    const dist = distance(word.toLowerCase(), n.toLowerCase());
    if (dist > Math.max(1, Math.floor(n.length * 0.4))) continue;
    if (dist < bestD) [best, bestD] = [[n], dist];
    else if (dist === bestD) best.push(n);
  }
  return best;
}
