import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isUlid, whyNotUlid } from '../../util/ulid.js';
import { count } from '../../util/plural.js';
import { readInput } from '../kit.js';

/** How many bad ids an error message names before "and N more". */
const SHOWN = 5;

/**
 * Supplier ids from arguments and --ids-file, deduplicated in order. The file
 * holds one id per line: surrounding spaces are trimmed, blank lines and `#`
 * comments (whole-line or trailing) are ignored, and anything else on a line
 * is one id (a line "bad id" is one bad id, not two). Every id must be a
 * 26-character lowercase ULID (score calc, check, explain, report): otherwise
 * a usage error (exit 2) names the bad ones, and nothing is sent.
 */
export async function gatherIds(ctx: Context, args: string[], idsFile: unknown): Promise<string[]> {
  const raw: string[] = [];
  const bad: string[] = [];
  let bundle = false;
  const take = (id: string, where: string) => {
    if (isUlid(id)) raw.push(id);
    // A long line (a bundle given as an ids file: each line ~1 KB) is shown by its start: the error stays one readable line.
    else if (bad.length < SHOWN) bad.push(`${JSON.stringify(id.length > 40 ? `${id.slice(0, 37)}...` : id)} (${where}: ${whyNotUlid(id)})`);
    else bad.push('');
  };
  // Surrounding spaces are trimmed, as in the file and in every other command's id (checkId).
  args.forEach((a, i) => take(a.trim(), `argument ${i + 1}`));
  if (typeof idsFile === 'string') {
    const text = await readInput(ctx, idsFile, '--ids-file');
    const name = idsFile === '-' ? 'stdin' : idsFile;
    // UTF-16 without its byte order mark (or a binary file): said as such, not as ids full of NULs.
    if (text.includes('\u0000')) throw new UsageError(`--ids-file ${name} is not UTF-8 text (it holds NUL bytes: UTF-16 without a byte order mark, or a binary file): save it as UTF-8, one id per line`, { code: 'invalid_input' });
    const lines = text.replace(/^\uFEFF/, '').split('\n');
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      const hash = line.indexOf('#');
      const id = (hash < 0 ? line : line.slice(0, hash)).trim();
      if (n === 0 && line.startsWith('{"kind":"srs.score-bundle"')) bundle = true;
      if (id) take(id, `${name} line ${n + 1}`);
    }
  }
  if (bad.length) {
    const more = bad.length > SHOWN ? ` and ${bad.length - SHOWN} more` : '';
    const hint = bundle ? ` (${idsFile === '-' ? 'stdin' : String(idsFile)} is an evidence bundle, not a list of ids: give it with --from)` : '';
    throw new UsageError(`${count(bad.length, 'supplier id')} ${bad.length === 1 ? 'is not a 26-character lowercase ULID' : 'are not 26-character lowercase ULIDs'}: ${bad.slice(0, SHOWN).join(', ')}${more}${hint}`, { code: 'invalid_input' });
  }
  // A Set keeps the first occurrence of each id, in order.
  const ids = [...new Set(raw)];
  const dupes = raw.length - ids.length;
  if (dupes) ctx.info(`${dupes} duplicate supplier id${dupes === 1 ? '' : 's'} ignored`);
  if (ids.length === 0) throw new UsageError('no supplier ids: give them as arguments or with --ids-file FILE (or - for stdin)');
  return ids;
}

export { checkId } from '../../util/ulid.js';
