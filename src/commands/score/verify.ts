/**
 * Verifying evidence, record by record as it streams in (`score recompute`
 * and `score check --from`). The findings, in the order they take precedence:
 *
 *   undigested    format-1 bundles and raw responses carry no digest (unless --allow-undigested)
 *   altered       the digest does not match the content, or the end record is missing
 *   model         the bundle's modelVersion is not the running model's (unless --accept-model)
 *   incomplete    a requested id without a result or a recorded error, a result nobody asked for,
 *                 a scorecard id without its definition
 *   conflict      an entry whose occurrences disagree or repeat, a supplier listed twice
 *   differs       a recomputed value further than the tolerance from the reported one
 */
import type { ScoreResult, Scorecard } from '../../api/contract.js';
import {
  MODEL_VERSION,
  ScoringError,
  compareScores,
  rebuildFromScoreResult,
  scoreSupplier,
  type ScoreDifference,
  type ScoringScorecard,
} from '../../scoring/index.js';
import { UsageError } from '../../errors.js';
import { count } from '../../util/plural.js';
import { bundleOptions, cardsByIds, checkScoringOptions, withOverrides, type BundleOptions, type ScoringOverrides } from './bundle.js';
import type { EvidenceEvent, FileDigest, PinnedFile } from './evidence.js';

export type FindingKind = 'undigested' | 'altered' | 'model' | 'incomplete' | 'conflict' | 'differs';
const ORDER: FindingKind[] = ['undigested', 'altered', 'model', 'incomplete', 'conflict', 'differs'];

export const FINDING_TITLES: Record<FindingKind, string> = {
  undigested: 'cannot verify',
  altered: 'bundle altered',
  model: 'model version differs',
  incomplete: 'bundle incomplete',
  conflict: 'conflicting entries',
  differs: 'recomputation differs',
};

/** How many examples a finding keeps for its message. */
const EXAMPLES = 3;

export interface VerifyOptions {
  tolerance: number;
  /** The bundle's modelVersion, when it differs from MODEL_VERSION, is accepted if it equals this. */
  acceptModel?: string | undefined;
  overrides: ScoringOverrides;
  /** asOf when the evidence records none (a raw response): today. */
  today: string;
  /** Scorecards for a raw response (--scorecards). */
  rawScorecards?: ((supplierId: string) => ScoringScorecard[]) | undefined;
  /** The digest computed before reading (files), so a mismatch is known first. */
  digestFirst?: FileDigest | undefined;
  /** The file as opened once (evidence.ts pinEvidence): read twice when regular, else once; undefined for stdin. */
  pinned?: PinnedFile | undefined;
  /** Accept evidence without a digest (format 1, raw responses): --allow-undigested. */
  allowUndigested?: boolean;
  what: string;
  /**
   * --verify: when the header already shows that the evidence cannot verify
   * (altered per the digest computed first, no digest, another model version),
   * stop there with this said after the finding ("nothing was recomputed"):
   * no value is recomputed or printed, so nothing reads as agreeing first.
   */
  stopAtHeader?: string | undefined;
  /** Where warnings about the evidence go (default: stderr); score check also puts them in its step summary. */
  warn?: ((message: string) => void) | undefined;
}

export interface Verdict {
  supplierId: string;
  /** The compared values (empty for a supplier that could not be recomputed). */
  rows: ScoreDifference[];
}

export class EvidenceVerifier {
  readonly opts: VerifyOptions;
  format: 1 | 2 | 'response' | undefined;
  modelVersion: string | null = null;
  asOf = '';
  options: BundleOptions = bundleOptions();
  /** Warnings worth showing (expiry before issue, inferred scores): counted, a few kept. */
  warnings = 0;
  warningExamples: string[] = [];
  suppliers = 0;
  values = 0;
  valuesDiffering = 0;
  readonly #findings = new Map<FindingKind, { count: number; examples: string[] }>();
  readonly #requested = new Set<string>();
  readonly #answered = new Set<string>();
  /** Result and error records read, repeats included: what the end record counts (docs/scoring.md). */
  #records = 0;
  readonly #definitions = new Map<string, Scorecard>();
  readonly #cards = cardsByIds((id) => this.#definitions.get(id));
  /** Recorded errors (unknown suppliers), by supplier id. */
  readonly errors = new Map<string, string>();

  constructor(opts: VerifyOptions) {
    this.opts = opts;
  }

  find(kind: FindingKind, example: string): void {
    let f = this.#findings.get(kind);
    if (!f) this.#findings.set(kind, (f = { count: 0, examples: [] }));
    f.count++;
    if (f.examples.length < EXAMPLES) f.examples.push(example);
  }

  /** The findings, most serious first, each as one line. */
  findings(): Array<{ kind: FindingKind; message: string }> {
    const out: Array<{ kind: FindingKind; message: string }> = [];
    for (const kind of ORDER) {
      const f = this.#findings.get(kind);
      if (!f) continue;
      const more = f.count > f.examples.length ? `; and ${f.count - f.examples.length} more` : '';
      out.push({ kind, message: `${FINDING_TITLES[kind]}: ${f.examples.join('; ')}${more}` });
    }
    return out;
  }

  /** What the evidence is when it carries no digest and --allow-undigested took it (its integrity is not known). */
  undigested: string | undefined;

  #warn(m: string): void {
    this.warnings++;
    if (this.warningExamples.length < EXAMPLES) this.warningExamples.push(m);
  }

  header(ev: Extract<EvidenceEvent, { t: 'header' }>): void {
    this.format = ev.format;
    this.modelVersion = ev.modelVersion;
    const o = this.opts.overrides;
    this.asOf = o.asOf ?? ev.asOf ?? this.opts.today;
    this.options = withOverrides(ev.options ?? bundleOptions(), o);
    checkScoringOptions(this.options, this.asOf, this.opts.what);
    const d = this.opts.digestFirst;
    if (ev.format === 2 && d) {
      if (d.declared === null) this.find('altered', 'its last line is not the end record with the digest (the file was cut short, edited, or something was added after the end record)');
      // An end record before the last line: content was added after it (and a new end record forged over all of it).
      else if (d.ends > 1) this.find('altered', `content was added after an end record (the file holds ${d.ends} end records)`);
      else if (d.declared !== d.computed) this.find('altered', `its content does not match its digest (sha256 ${d.declared.slice(0, 12)}…, content ${d.computed.slice(0, 12)}…)`);
      // Counted in the same pass: a bundle cut or edited (digest recomputed, count not) stops here, before anything is printed.
      else if (d.declaredSuppliers !== null && d.declaredSuppliers !== d.suppliers) this.find('altered', supplierCount(d.declaredSuppliers, d.suppliers));
    } else if (ev.format !== 2 && this.opts.allowUndigested) {
      this.undigested = ev.format === 1 ? 'a format-1 bundle' : 'a raw score-calculation response';
    } else if (ev.format !== 2) {
      this.find('undigested', `${ev.format === 1 ? 'a format-1 bundle' : 'a raw score-calculation response'} carries no digest, so srs cannot tell whether it was altered (save the evidence again with score calc --save, or accept this with --allow-undigested)`);
    }
    if (ev.format !== 'response' && ev.modelVersion !== MODEL_VERSION && ev.modelVersion !== this.opts.acceptModel) {
      this.find('model', `the bundle was computed with model ${ev.modelVersion}, this srs runs model ${MODEL_VERSION} (--accept-model ${ev.modelVersion} recomputes it anyway)`);
    }
  }

  request(supplierIds: readonly string[]): void {
    for (const id of supplierIds) this.#requested.add(id);
  }

  scorecard(card: Scorecard): void {
    // A scorecard without an id (the document does not mark it required) cannot be referenced.
    if (typeof card.id !== 'string') return;
    if (this.#definitions.has(card.id) && JSON.stringify(this.#definitions.get(card.id)) !== JSON.stringify(card)) {
      this.find('conflict', `scorecard ${card.id} is defined twice, differently`);
    }
    this.#definitions.set(card.id, card);
  }

  /** A supplier without a result (format 2 records why). */
  error(supplierId: string, message: string): void {
    this.#answer(supplierId);
    this.errors.set(supplierId, message);
  }

  #answer(supplierId: string): boolean {
    this.#records++;
    if (this.#answered.has(supplierId)) {
      this.find('conflict', `supplier ${supplierId} is listed more than once`);
      return false;
    }
    this.#answered.add(supplierId);
    if (this.format !== 'response' && !this.#requested.has(supplierId)) this.find('incomplete', `a result for ${supplierId}, which no request asked for`);
    return true;
  }

  /** Recomputes one supplier (an item read and validated by readEvidence) and compares every value. */
  result(item: ScoreResult, scorecardIds: string[] | undefined): Verdict {
    return this.#result(item, scorecardIds);
  }

  #result(item: ScoreResult, scorecardIds: string[] | undefined): Verdict {
    this.suppliers++;
    this.#answer(item.supplierId);
    const rebuilt = rebuildFromScoreResult(item);
    for (const c of rebuilt.conflicts) this.find('conflict', `supplier ${item.supplierId}: ${c}`);
    for (const w of rebuilt.warnings) if (!rebuilt.conflicts.includes(w) && !w.includes('its own score is taken as 0')) this.#warn(`supplier ${item.supplierId}: ${w}`);
    let cards: ScoringScorecard[];
    if (scorecardIds === undefined) cards = this.opts.rawScorecards?.(item.supplierId) ?? [];
    else {
      for (const id of scorecardIds) if (!this.#definitions.has(id)) this.find('incomplete', `supplier ${item.supplierId}: scorecard ${id} has no definition`);
      cards = this.#cards(scorecardIds);
    }
    let recomputed;
    try {
      recomputed = scoreSupplier(item.supplierId, rebuilt.entries, cards, { ...this.options, asOf: this.asOf });
    } catch (e) {
      // The model rejects what it cannot score (a malformed date or score in the file): invalid input, exit 2.
      if (e instanceof ScoringError) throw new UsageError(`${this.opts.what}: supplier ${item.supplierId}: ${e.message}`, { code: 'invalid_input' });
      throw e;
    }
    const rows = compareScores(item, recomputed, this.opts.tolerance);
    this.values += rows.length;
    for (const r of rows) {
      if (r.ok) continue;
      this.valuesDiffering++;
      this.find('differs', `${item.supplierId} ${r.path} reported ${show(r.reported)}, recomputed ${show(r.recomputed)}`);
    }
    return { supplierId: item.supplierId, rows };
  }

  /**
   * Why the bundle is not whole, whatever its digest: no end record (a file cut short, at a batch's boundary too,
   * where the lost batches' requests went with their results), or an end record counting other suppliers than it
   * holds. undefined for a whole bundle, and for a raw response or format 1 (no end record to count).
   */
  cutShort: string | undefined;

  end(ev: Extract<EvidenceEvent, { t: 'end' }>): void {
    if (this.format === 2) {
      if (ev.declared === null) this.cutShort = 'it has no end record (the file was cut short, or its last line edited)';
      else if (ev.declared.suppliers !== this.#records) this.cutShort = supplierCount(ev.declared.suppliers, this.#records);
    }
    if (this.format === 2 && !this.opts.digestFirst && ev.afterEnd === undefined) {
      // Read from stdin: the digest could only be computed along the way.
      if (ev.declared === null) this.find('altered', 'no end record with a digest (the input was cut short or edited)');
      else if (ev.declared.digest !== ev.computed) this.find('altered', `its content does not match its digest (sha256 ${ev.declared.digest.slice(0, 12)}…, content ${(ev.computed ?? '').slice(0, 12)}…)`);
    }
    if (ev.afterEnd !== undefined) this.find('altered', `content was added after the end record (line ${ev.afterEnd})`);
    // Records, repeats included, as the writer counts them: a repeated supplier is "conflicting entries", not an alteration.
    else if (ev.declared && ev.declared.suppliers !== this.#records && !this.#countedFirst()) this.find('altered', supplierCount(ev.declared.suppliers, this.#records));
    const missing = this.unanswered();
    if (missing.length) {
      const examples = missing.slice(0, EXAMPLES);
      this.find('incomplete', `${count(missing.length, 'requested supplier id')} ${missing.length === 1 ? 'has' : 'have'} neither a result nor a recorded error (${examples.join(', ')}${missing.length > examples.length ? ', …' : ''})`);
    }
  }

  /** Whether the first pass already found the end record's count wrong (said once). */
  #countedFirst(): boolean {
    const d = this.opts.digestFirst;
    return this.format === 2 && !!d && d.declaredSuppliers !== null && d.declaredSuppliers !== d.suppliers;
  }

  /** Requested ids with neither a result nor a recorded error (none for a raw response, which records no request). */
  unanswered(): string[] {
    if (this.format === 'response') return [];
    return [...this.#requested].filter((id) => !this.#answered.has(id));
  }

  /** The scorecards' parameter ids (for --min-parameter). */
  parameterIds(): Set<string> {
    const ids = new Set<string>();
    for (const card of this.#definitions.values()) for (const it of card.items ?? []) if (typeof it.policyParameter?.id === 'string') ids.add(it.policyParameter.id);
    return ids;
  }
}

const supplierCount = (declared: number, held: number) => `the end record counts ${count(declared, 'supplier')}, the bundle holds ${held}`;

export function show(v: number | null): string {
  return v === null ? 'no data' : String(v);
}
