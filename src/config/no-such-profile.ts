import { UsageError } from '../errors.js';
import { closest } from '../util/suggest.js';
import { profileNameProblem } from './resolve.js';

/** A profile named that is not stored (auth switch, auth logout, --profile or SRS_PROFILE): exit 2, with the nearest names. */
export function noSuchProfile(name: string, names: readonly string[]): UsageError {
  const near = closest(name, [...names], true);
  const known = names.length ? `stored profiles: ${names.join(', ')}` : 'no profile is stored yet';
  // A name no profile can have is not offered as one to create ("constructor": login then said it is reserved).
  const problem = profileNameProblem(name);
  const create = problem ? `no profile can be named so (${problem})` : `create it with "srs auth login --profile ${name}"`;
  return new UsageError(`no profile "${name}" (${near.length ? `did you mean ${near.join(' or ')}? ` : ''}${known}); ${create}`);
}
