/**
 * The optional state file (EmulatorOptions.statePath): what changed at run
 * time, so that a restarted emulator serves the same data.
 *
 * Format (JSON, mode 0600):
 *   {
 *     "format": "srs-emulator-state",
 *     "version": 1,
 *     "seed": 1,             // the seed the data was generated with
 *     "suppliers": 150,      // how many suppliers were seeded
 *     "createdSuppliers": [  // suppliers created with POST /v1/suppliers, in id order
 *       { "id", "name", "countryIso3Code", "website", "status", "customerSupplierId",
 *         "industryCodes", "categoryIds", "contacts", "customFields", "publicSupplierProfileUrl" }
 *     ]
 *   }
 * Seeded data is not stored: it is regenerated from seed and suppliers.
 *
 * Writes are atomic (temporary file in the same directory, then rename) and
 * coalesced: a change schedules a write a few milliseconds later; at most one
 * write is in flight; a change during a write triggers one more write after it,
 * so the last change is always written. flush() (called by close()) waits for
 * everything. Serialisation is a join of per-record JSON texts cached at
 * creation time, so even with 20,000+ created suppliers a write costs little
 * main-thread time and nothing is done per request beyond marking dirty.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod/mini';
import { describeZodError } from '../api/contract.js';
import type { SupplierRec } from './records.js';
import { writeFileAtomic } from '../util/fs.js';

export const STATE_FORMAT = 'srs-emulator-state';
export const STATE_VERSION = 1;

const StoredSupplier = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  countryIso3Code: z.nullable(z.string()),
  website: z.nullable(z.string()),
  status: z.string(),
  customerSupplierId: z.nullable(z.string()),
  industryCodes: z.array(z.string()),
  categoryIds: z.array(z.string()),
  contacts: z.array(
    z.object({ email: z.optional(z.string()), firstName: z.optional(z.string()), lastName: z.optional(z.string()) }),
  ),
  customFields: z.array(z.object({ fieldLabel: z.string(), fieldValue: z.string() })),
  publicSupplierProfileUrl: z.string(),
});

const StateFile = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  seed: z.number().check(z.int()),
  suppliers: z.number().check(z.int(), z.gte(1)),
  createdSuppliers: z.array(StoredSupplier),
});

export interface LoadedState {
  seed: number;
  suppliers: number;
  createdSuppliers: SupplierRec[];
}

/** Reads the state file: undefined when it does not exist; an Error naming the file when it is unreadable or corrupt. */
export async function loadState(path: string): Promise<LoadedState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read emulator state file ${path}: ${(e as Error).message}`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`emulator state file ${path} is corrupt (not valid JSON: ${(e as Error).message}); delete it or point statePath elsewhere`, {
      cause: e,
    });
  }
  const parsed = StateFile.safeParse(json);
  if (!parsed.success) {
    throw new Error(`emulator state file ${path} is corrupt (${describeZodError(parsed.error)}); delete it or point statePath elsewhere`);
  }
  return {
    seed: parsed.data.seed,
    suppliers: parsed.data.suppliers,
    createdSuppliers: parsed.data.createdSuppliers as SupplierRec[],
  };
}

/** The state file text from already-serialised supplier records. */
export function serializeState(seed: number, suppliers: number, createdJson: readonly string[]): string {
  return (
    `{"format":${JSON.stringify(STATE_FORMAT)},"version":${STATE_VERSION},"seed":${seed},"suppliers":${suppliers},` +
    `"createdSuppliers":[${createdJson.length > 0 ? '\n' + createdJson.join(',\n') + '\n' : ''}]}\n`
  );
}

export class StateWriter {
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private lastError: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly serialize: () => string,
    private readonly onError: (e: Error) => void = () => undefined,
    private readonly coalesceMs = 20,
  ) {}

  /** Notes a change; a write follows shortly (coalesced with other changes). */
  markDirty(): void {
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.inFlight !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeNow();
    }, this.coalesceMs);
  }

  private writeNow(): Promise<void> {
    if (this.inFlight !== undefined) return this.inFlight;
    if (!this.dirty) return Promise.resolve();
    this.dirty = false;
    const text = this.serialize();
    this.inFlight = writeFileAtomic(this.path, text, { mode: 0o600 })
      .then(
        () => {
          this.lastError = undefined;
        },
        (e: unknown) => {
          this.lastError = e instanceof Error ? e : new Error(String(e));
          this.onError(this.lastError);
        },
      )
      .finally(() => {
        this.inFlight = undefined;
        if (this.dirty) this.schedule();
      });
    return this.inFlight;
  }

  /** Writes now if anything is pending and waits for every write; rejects if the last write failed. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.inFlight !== undefined || this.dirty) {
      if (this.inFlight !== undefined) await this.inFlight;
      else await this.writeNow();
      if (this.timer !== undefined) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    }
    if (this.lastError) throw new Error(`cannot write emulator state file ${this.path}: ${this.lastError.message}`, { cause: this.lastError });
  }
}
