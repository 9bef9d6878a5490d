import { markCheckedSupplierBody, type SupplierCreateRequest, type SupplierCreateResponse } from '../../api/contract.js';
import { SupplierInput as Schema } from '../../api/supplier-input.js';
import { validateRequest } from '../../api/client.js';
import { classifyCreateFailure } from '../../api/outcome.js';
import { AttemptWatch } from '../../api/http.js';
import type { Context } from '../../context.js';
import { ExitCode, OutcomeUnknownError, QueryError, SrsError, UsageError } from '../../errors.js';
import { InterruptedError, onInterrupt, stoppedWord, type StopSignal } from '../../util/signals.js';
import { columns } from '../../output/columns.js';
import { renderItem } from '../../output/render.js';
import { CREATE_SOURCE, type CatalogRecord } from '../../store/catalog.js';
import { readJsonInput, refuseReplacementChar, type Opts } from '../kit.js';
import { CREATE_WAIT_MS, openCatalog, takeTargetLock, type OpenCatalog } from './catalog-access.js';

export function parseContact(spec: string): NonNullable<SupplierCreateRequest['contacts']>[number] {
  const [email, firstName, lastName, ...rest] = spec.split(',').map((s) => s.trim());
  if (rest.length) throw new UsageError(`--contact takes EMAIL[,FIRST[,LAST]] (got "${spec}")`);
  return {
    ...(email ? { email } : {}),
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
  };
}

export function bodyFromFlags(opts: Opts): SupplierCreateRequest {
  for (const [flag, key] of [['--name', 'name'], ['--website', 'website'], ['--customer-id', 'customerId'], ['--contact', 'contact'], ['--country', 'country'], ['--industry', 'industry'], ['--category', 'category']] as const) {
    refuseReplacementChar(flag, opts[key]);
  }
  const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);
  const body: Record<string, unknown> = {};
  // Trimmed as an import trims its cells (the same schema, the same rule): --name "   " created a supplier named
  // "   " that the import refuses, and " Padded " was sent as typed.
  if (typeof opts.name === 'string') body.name = opts.name.trim();
  if (typeof opts.country === 'string') body.countryIso3Code = opts.country.trim();
  if (typeof opts.website === 'string') body.website = opts.website.trim();
  // "30202010;30202030" as in an import's cell: the code check's own message offers that form.
  if (strings(opts.industry)) body.industryCodes = strings(opts.industry)!.flatMap((v) => v.split(';').map((c) => c.trim()).filter((c) => c !== ''));
  if (strings(opts.category)) body.categoryIds = strings(opts.category);
  if (strings(opts.contact)) body.contacts = strings(opts.contact)!.map(parseContact);
  // Trimmed further down, with a note (--json bodies too), so that the catalog knows it again.
  if (typeof opts.customerId === 'string') body.customerSupplierId = opts.customerId;
  if (body.name === undefined) throw new UsageError('--name is required (or give the whole body with --json FILE)');
  return body as SupplierCreateRequest;
}

/**
 * Records into the catalog. A catalog that cannot be written does not turn a supplier the service
 * created into an error (a script would retry and create a duplicate): the supplier is printed,
 * exit 0, and a warning names the id and the catalog.
 */
function record(ctx: Context, open: OpenCatalog | undefined, rec: CatalogRecord): boolean {
  if (!open) return true;
  try {
    open.catalog.record(open.partition, [rec]);
    return true;
  } catch (e) {
    const what = rec.state === 'created' ? `supplier ${rec.id} was created, but` : 'this attempt';
    // The attempt written ahead stays (unknown): the next create of it is refused rather than sent twice.
    const stays = rec.state === 'created' ? '; the attempt stays recorded as unknown, so the same create is not sent again without --retry-unknown' : '';
    ctx.warn(`${what} could not be recorded in the supplier catalog ${open.catalog.path}: ${(e as Error).message}${stays}`);
    return false;
  }
}

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  let body: unknown;
  if (typeof opts.json === 'string') {
    const flagged = ['name', 'country', 'website', 'industry', 'category', 'contact', 'customerId'].filter((k) => opts[k] !== undefined);
    if (flagged.length) throw new UsageError(`--json cannot be combined with field flags (${flagged.map((f) => '--' + f.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())).join(', ')})`);
    body = await readJsonInput(ctx, opts.json, '--json');
  } else {
    // An id given but blank (a script's variable that came out empty) would skip the catalog's check and create a new
    // supplier on every run: refused, as supplier get --customer-id refuses it.
    if (typeof opts.customerId === 'string' && opts.customerId.trim() === '') throw new UsageError('--customer-id needs a value (leave the option out to create a supplier without one)');
    body = bodyFromFlags(opts);
  }
  // The customer id as the import takes it: trimmed, and none when blank. The catalog compares it so (a " T8 " sent
  // as is was recorded as is, never matched, and created again on every run).
  const notes: string[] = [];
  if (body !== null && typeof body === 'object' && typeof (body as { customerSupplierId?: unknown }).customerSupplierId === 'string') {
    const b = body as { customerSupplierId?: string };
    // Spaces and tabs only: a line break is a paste accident that the one-line rule below refuses.
    const given = b.customerSupplierId!;
    const cid = given.replace(/^[ \t]+|[ \t]+$/g, '');
    // Said, not done silently: --json promises the body as given.
    if (cid && cid !== given) notes.push(`customerSupplierId ${JSON.stringify(given)} is sent as ${JSON.stringify(cid)} (trimmed, as an import takes it, so that the catalog knows it again)`);
    if (!cid) notes.push(`customerSupplierId ${JSON.stringify(given)} is blank: it is left out, and the supplier is created without one`);
    if (cid) b.customerSupplierId = cid;
    else delete b.customerSupplierId;
  }
  // Marked as checked: the client does not parse it a second time.
  const valid = markCheckedSupplierBody(validateRequest(Schema, body, 'supplier'));
  // The import's rule: a name or customerSupplierId is one line (a line break is a paste or quoting accident, and would
  // break every table, CSV and journal line that shows it).
  const { ONE_LINE_FIELDS, breaksLine } = await import('../../import/validate.js');
  for (const field of ONE_LINE_FIELDS) {
    if (breaksLine(valid[field])) throw new UsageError(`supplier: ${field} contains a line break: a name or id is one line`);
  }
  // Said once the request is known to be valid: "is sent as" before "invalid supplier" (exit 2, nothing sent) misled.
  for (const note of notes) ctx.info(note);
  const client = await ctx.client();
  // The catalog first: one that cannot be used (written by a newer srs, unreadable) stops here, before anything is sent.
  const open = await openCatalog(ctx, 'srs supplier create', false);
  if (open) ctx.onCleanup(() => open.catalog.checkpoint());
  // A customer id the catalog knows on this target is not sent again (the import's `exists` and `unknown`).
  const cid = valid.customerSupplierId;
  // With a customer id: the target's lock from the check to the record, so that an import (or another create)
  // cannot create the same id meanwhile (catalog-access.ts takeTargetLock); waits for one that holds it.
  const lock = open && cid ? await takeTargetLock(ctx, open, { what: `srs supplier create of customerSupplierId ${JSON.stringify(cid)}` }, CREATE_WAIT_MS) : undefined;
  let created: SupplierCreateResponse;
  try {
    const known = open && cid ? open.catalog.lookupCustomerId(open.partition, cid) : undefined;
    if (known?.state === 'created' && opts.allowExisting !== true) {
      throw new SrsError('exists', ExitCode.failure, `customerSupplierId ${JSON.stringify(cid)} was already created on this target${known.id ? ` as supplier ${known.id}` : ''} (${known.source}); not sent again (--allow-existing sends it)`);
    }
    if (known?.state === 'unknown' && opts.retryUnknown !== true) {
      throw new OutcomeUnknownError(
        `an earlier create of customerSupplierId ${JSON.stringify(cid)} has an unknown outcome (${known.source}): the supplier may exist; not sent (check first: srs supplier find ${JSON.stringify(cid)}; --retry-unknown sends it)`,
      );
    }
    // Without a customer id, the name is all there is to match: the last create of this exact name had an unknown outcome.
    const unsure = open && !cid && opts.retryUnknown !== true ? open.catalog.unknownCreateByName(open.partition, valid.name) : undefined;
    if (unsure) {
      throw new OutcomeUnknownError(
        `the last create of a supplier named ${JSON.stringify(valid.name)} without customer id (${unsure.recordedAt}) has an unknown outcome: it may exist; not sent (check first: srs supplier find ${JSON.stringify(valid.name)}; --retry-unknown sends it)`,
      );
    }
    // Written ahead, as the import's journal writes a row's line before its request leaves: the attempt is
    // `unknown` until its outcome is known, so a create killed in flight (kill -9, a power cut) stays on record
    // and the next create or import of it is refused as outcome_unknown instead of creating it twice.
    const attempt = { name: valid.name, customerSupplierId: valid.customerSupplierId ?? null, countryIso3Code: valid.countryIso3Code ?? null, state: 'unknown' as const, source: CREATE_SOURCE };
    let pending: { first: number; last: number } | undefined;
    if (open) {
      try {
        pending = open.catalog.record(open.partition, [attempt]);
      } catch (e) {
        throw new SrsError('runtime', ExitCode.failure, `cannot record this attempt in the supplier catalog ${open.catalog.path} before sending it: ${(e as Error).message}; nothing was sent (--no-catalog sends without the catalog)`, { cause: e });
      }
    }
    const settled = () => {
      // The outcome is known: the attempt written ahead goes (an earlier unknown attempt it only touched stays listed).
      if (!open || !pending) return;
      try {
        open.catalog.forgetAttempt(open.partition, pending);
      } catch (e) {
        ctx.warn(`this attempt stays listed as unknown in the supplier catalog ${open.catalog.path}: ${(e as Error).message}`);
      }
    };
    const unknownOutcome = (reason: string, cause: unknown, sig?: StopSignal): SrsError => {
      record(ctx, open, { name: valid.name, customerSupplierId: valid.customerSupplierId ?? null, countryIso3Code: valid.countryIso3Code ?? null, state: 'unknown', source: CREATE_SOURCE });
      const look = valid.customerSupplierId ?? valid.name;
      // Without a catalog srs recorded nothing: pointing at `supplier find` would answer "[]", which reads as "not created".
      const message =
        `outcome unknown: ${reason}. The supplier may exist: do not create it again before checking ` +
        (open
          ? `(srs supplier find ${JSON.stringify(look)} lists what srs recorded, this attempt as unknown; the service itself has no lookup by name or customer id)`
          : `(srs recorded nothing: the catalog is off, so srs supplier find cannot tell; the service itself has no lookup by name or customer id: ask its operators)`);
      if (!sig) return new OutcomeUnknownError(message, { cause });
      return new InterruptedError(sig, message, 'outcome_unknown');
    };
    // Ctrl-C or SIGTERM while the request is in flight: it may have reached the service. The attempt is recorded
    // as unknown and the user told so, then srs exits 130/143 (the request itself is left to the exit). A signal
    // while no attempt is in flight (before the first left, or while waiting to send again after a 429, a 503 or a
    // refused connection, none of which created it) is "not created": it was "outcome unknown", and the next create
    // of it was refused. No attempt leaves after it (stopRetries).
    let interrupted: StopSignal | undefined;
    const watch = new AttemptWatch();
    let notSent = false;
    let onStop!: () => void;
    const stopped = new Promise<undefined>((resolve) => (onStop = () => resolve(undefined)));
    const offSignal = onInterrupt((sig) => {
      interrupted = sig;
      // The last attempt answered (any answer but a throttle): its outcome is that answer's, being read; not raced.
      if (!watch.inFlight && watch.lastKind === 'ok') return;
      notSent = !watch.inFlight;
      client.stopRetries();
      onStop();
    });
    try {
      const sending = client.createSupplier(valid, watch.onAttempt, watch.onSend);
      const answer = await ctx.withSpinner('Creating supplier…', () => Promise.race([sending, stopped]));
      if (answer === undefined && notSent) {
        settled();
        sending.catch(() => undefined);
        throw new InterruptedError(interrupted!, `${stoppedWord(interrupted!)} ${watch.notInFlightWhen('created it')}: the supplier was not created`);
      }
      if (answer === undefined) throw unknownOutcome(`${stoppedWord(interrupted ?? 'SIGINT')} while the request was in flight`, undefined, interrupted ?? 'SIGINT');
      created = answer;
    } catch (e) {
      if (e instanceof InterruptedError) throw e;
      const outcome = classifyCreateFailure(e);
      if (outcome.state !== 'unknown' || (outcome.fatal && outcome.fatal.code === 'auth')) {
        // Answered: not created (a rejected key, a 4xx).
        settled();
        throw e;
      }
      throw unknownOutcome(`the request may have reached the service, but no usable answer came back (${outcome.reason ?? outcome.message})`, e);
    } finally {
      offSignal();
    }
    // Created, then the attempt forgotten: a crash between the two leaves both, and the created entry wins (exists).
    // What was sent is recorded, as the import records it: the next create of the same row is refused by what it
    // sends. A service that answers with the customer id normalised (V-1001 for v-1001) made the next create of
    // v-1001 look new, and it created a second supplier. A created record that could not be written (the catalog
    // locked, a full disk) leaves the attempt: forgotten, nothing was left to refuse the same create.
    const recorded = record(ctx, open, {
      id: created.id,
      name: valid.name,
      customerSupplierId: valid.customerSupplierId ?? null,
      countryIso3Code: valid.countryIso3Code ?? null,
      state: 'created',
      source: CREATE_SOURCE,
    });
    if (recorded) settled();
  } finally {
    lock?.release();
  }
  try {
    await renderItem(ctx.sink, created, columns.supplierCreated, ctx.renderOptions());
  } catch (e) {
    // The supplier exists: a failure to print it must not read as "not created" (a retry would duplicate it).
    if (!(e instanceof SrsError) || (e.cause as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') throw e;
    // A --query that fails on the answer is exit 1 here, not 2 ("nothing sent" would invite a retry, and a duplicate).
    if (e instanceof QueryError) throw e.afterTheWork(`supplier ${created.id} was created`);
    throw new SrsError(e.code, e.exitCode, `supplier ${created.id} was created, but ${e.message.replace(/^cannot/, 'srs could not')}`, { cause: e });
  }
}
