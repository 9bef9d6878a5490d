import { UsageError } from '../../errors.js';
import { closest } from '../../util/suggest.js';

export { noSuchProfile } from '../../config/no-such-profile.js';
