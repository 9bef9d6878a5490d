/**
 * The emulator's internal records: what the store keeps. These are storage
 * shapes, not wire shapes; handlers.ts turns them into the contract's response
 * shapes (src/api/contract.ts), which remain the single source of truth for
 * anything sent over HTTP.
 */

export interface DataSourceRec {
  id: string;
  name: string;
  vendorName: string;
  dataSourceType: string;
  logoUrl: string;
  website: string;
}

export interface PolicyParameterRec {
  id: string;
  name: string;
  policyCategoryName: string;
}

export interface CategoryRec {
  id: string;
  name: string;
}

export interface ScorecardItemRec {
  type: 'policy_parameter_item';
  policyParameter: PolicyParameterRec;
  weight: number;
}

export interface ScorecardRec {
  id: string;
  name: string;
  groupName: string;
  organizationId: string;
  createdAt: string;
  createdBy: string;
  weight: number;
  items: ScorecardItemRec[];
  /** true: applies to every supplier, including ones created at run time. */
  appliesToAll: boolean;
}

export interface ContactRec {
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

export interface SupplierRec {
  id: string;
  name: string;
  countryIso3Code: string | null;
  website: string | null;
  status: string;
  customerSupplierId: string | null;
  industryCodes: string[];
  categoryIds: string[];
  contacts: ContactRec[];
  customFields: { fieldLabel: string; fieldValue: string }[];
  publicSupplierProfileUrl: string;
}

export interface ArticleRec {
  id: string;
  url: string;
  title: string;
  summary: string;
  /** YYYY-MM-DD */
  publishedAt: string;
}

export interface NewsEventRec {
  id: string;
  dataEntryId: string;
  name: string;
  summary: string;
  articles: ArticleRec[];
}

export interface DataEntryRec {
  id: string;
  supplierId: string;
  dataSourceId: string;
  /** -3..3 */
  score: number;
  isClaim: boolean;
  /** YYYY-MM-DD */
  issueDate: string;
  /** YYYY-MM-DD */
  expiryDate: string;
  parameterScores: { policyParameterId: string; score: number }[];
}

export interface EmissionReportRec {
  id: string;
  supplierId: string;
  scope: string;
  fromDate: string;
  toDate: string;
  reportedOn: string;
  verifier: string;
  dataType: string;
  value: number;
  unit: string;
}

// Risk records are exactly the wire shape of dataPoints.risk (same fields, same order), and
// POST /v1/score-calculation answers with them as they are (scoring.ts). Type aliases rather
// than interfaces so that they are assignable to the contract's (loose, index-signature) types.
export type RiskIndicatorRec = {
  riskLevel: string;
  name: string;
  website: string;
  description: string;
};

export type RiskRec = {
  riskLevel: string;
  riskEntries: { riskDataSourceId: string; year: number; riskIndicators: RiskIndicatorRec[] }[];
};

/** Everything a seed produces. Arrays are in id order. */
export interface SeedData {
  seed: number;
  supplierCount: number;
  dataSources: DataSourceRec[];
  policyParameters: PolicyParameterRec[];
  categories: CategoryRec[];
  scorecards: ScorecardRec[];
  suppliers: SupplierRec[];
  dataEntries: DataEntryRec[];
  /** scorecard id -> ids of the seeded suppliers it applies to (besides appliesToAll). */
  scorecardMembers: Map<string, string[]>;
  /** A seeded supplier's details, generated on first use and cached; undefined for other ids. */
  details: (supplierId: string) => SupplierDetails | undefined;
}

/** The per-supplier data served on demand. */
export interface SupplierDetails {
  /** One per data entry, in id order. */
  newsEvents: NewsEventRec[];
  /** In id order. */
  emissionReports: EmissionReportRec[];
  /** policy parameter id -> the supplier's risk data for it. */
  risks: Map<string, RiskRec>;
}
