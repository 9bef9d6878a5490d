/**
 * The result of `srs score check` for one supplier: a type shared by the
 * command (src/commands/score/evaluate.ts computes it) and the schema registry
 * (src/schema/registry.ts describes its JSON), kept here so that nothing below
 * the commands imports a command.
 */
export type CheckStatus = 'pass' | 'fail' | 'no data';

export interface CheckResult {
  supplierId: string;
  status: CheckStatus;
  score: number | null;
  riskLevel: string | null;
  reasons: string[];
}
