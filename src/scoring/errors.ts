/** The score model's one error: invalid input (bad option, weight, date or score). Nothing is scored. */
/** Invalid input to the model (bad option, weight, date or score). Nothing is scored. */
export class ScoringError extends Error {
  readonly code = 'invalid_input' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ScoringError';
  }
}
