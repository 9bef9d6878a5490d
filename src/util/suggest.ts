/** "Did you mean ...?" for a mistyped name (a command, a parameter id). */

/** Edit distance (optimal string alignment). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The names closest to `word` (ties all kept), within 40% of a name's length in edits; none when nothing is close. */
export function closest(word: string, names: Iterable<string>, ignoreCase = false): string[] {
  const w = ignoreCase ? word.toLowerCase() : word;
  let best: string[] = [];
  let bestD = Infinity;
  for (const n of names) {
    const dist = distance(w, ignoreCase ? n.toLowerCase() : n);
    if (dist > Math.max(1, Math.floor(n.length * 0.4))) continue;
    if (dist < bestD) [best, bestD] = [[n], dist];
    else if (dist === bestD) best.push(n);
  }
  return best;
}

/**
 * The closest names, as " (did you mean x or y?)", or "" when none is close. Ignoring case when nothing is close
 * otherwise: an id typed in capitals (01FCPRZW...) is 26 edits from its lowercase self, and had no suggestion.
 */
export function suggest(word: string, names: Iterable<string>): string {
  const list = [...names];
  let best = closest(word, list);
  if (!best.length) best = closest(word, list, true);
  return best.length ? ` (did you mean ${best.join(' or ')}?)` : '';
}
