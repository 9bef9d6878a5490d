import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readInput } from '../kit.js';

/** Supplier ids from arguments and --ids-file (one per line; blank lines and # comments ignored), deduplicated in order. */
export async function gatherIds(ctx: Context, args: string[], idsFile: unknown): Promise<string[]> {
  const raw = [...args];
  if (typeof idsFile === 'string') {
    const text = await readInput(ctx, idsFile, '--ids-file');
    for (const line of text.split(/\r?\n/)) {
      const t = line.replace(/#.*$/, '').trim();
      if (t) raw.push(...t.split(/[\s,]+/).filter(Boolean));
    }
  }
  const seen = new Set<string>();
  const ids: string[] = [];
  let dupes = 0;
  for (const id of raw) {
    if (seen.has(id)) {
      dupes++;
      continue;
    }
    seen.add(id);
    ids.push(id);
  }
  if (dupes) ctx.warn(`${dupes} duplicate supplier id${dupes === 1 ? '' : 's'} ignored`);
  if (ids.length === 0) throw new UsageError('no supplier ids: give them as arguments or with --ids-file FILE (or - for stdin)');
  return ids;
}
