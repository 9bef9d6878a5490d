/**
 * Seeded, deterministic and realistic data for the emulator.
 *
 * Same seed => same records and ids. Reference data (data sources, policy
 * parameters, categories, scorecards) comes from one PRNG stream; each supplier
 * has its own stream (deriveSeed(seed, 'supplier', i)), so supplier #i and its
 * data entries do not depend on how many suppliers are seeded. The heavier
 * details (news events with articles, emission reports, risk data) come from a
 * second per-supplier stream and are generated on first use (SeedData.details),
 * which keeps seeding to a few milliseconds. Names are invented (no real companies or
 * trademarks); countries and industry codes are real.
 *
 * Supplier 0 is always "rich": data entries from several data sources (valid
 * today), news events, emission reports for all three scopes, risk data for
 * every parameter of its scorecards, 2+ industries and 1+ category, and it is a
 * member of at least one scorecard besides the baseline. So is every 7th
 * supplier from #3 on. The rest get a realistic mix, including suppliers with
 * no data at all.
 */
import { COUNTRIES, SUB_INDUSTRIES, SUB_INDUSTRY_BY_CODE } from './reference.js';
import { deriveSeed, Rng, SeededUlids } from './random.js';
import type {
  ArticleRec,
  CategoryRec,
  DataEntryRec,
  DataSourceRec,
  EmissionReportRec,
  NewsEventRec,
  PolicyParameterRec,
  RiskRec,
  ScorecardRec,
  SeedData,
  SupplierDetails,
  SupplierRec,
} from './records.js';

// ---------------------------------------------------------------- fixed clocks

const POLICY_BASE = Date.UTC(2021, 7, 10);
const ORG_BASE = Date.UTC(2021, 0, 5);
const DATA_SOURCE_BASE = Date.UTC(2022, 2, 1);
const CATEGORY_BASE = Date.UTC(2022, 5, 1);
const SCORECARD_BASE = Date.UTC(2023, 8, 4);
const SUPPLIER_BASE = Date.UTC(2023, 6, 14);
const ENTRY_BASE = Date.UTC(2024, 0, 2);
const NEWS_BASE = Date.UTC(2024, 0, 3);
const ARTICLE_BASE = Date.UTC(2024, 0, 4);
const EMISSION_BASE = Date.UTC(2024, 1, 1);
/** The latest day a seeded news article is published: the seed's present (its last valid issue date is 2026-09-30). */
const LATEST_NEWS = Date.UTC(2026, 9, 31);
/** Per-supplier time blocks (ms): ids of supplier i sort before those of supplier i+1. */
const SUPPLIER_STEP = 3_600_000;
/**
 * The first HOURLY_SUPPLIERS suppliers are an hour apart (to 2025-12-05); the rest 10 s apart after them (1,000,000
 * end in March 2026). Hourly all the way, supplier 29,520 on fell after today: run-time ids, which follow the last
 * seeded one (MonotonicUlids), were then that id plus one in every process, and two emulators sharing a --state
 * file made the same ids (a create answered 500 after 10 clashes).
 */
const HOURLY_SUPPLIERS = 21_000;
const LATE_SUPPLIER_STEP = 10_000;
/** The time block of supplier i's id: [start, start + step - 1], always in the past. */
export function supplierIdBlock(i: number): { start: number; step: number } {
  if (i < HOURLY_SUPPLIERS) return { start: SUPPLIER_BASE + i * SUPPLIER_STEP, step: SUPPLIER_STEP };
  return { start: SUPPLIER_BASE + HOURLY_SUPPLIERS * SUPPLIER_STEP + (i - HOURLY_SUPPLIERS) * LATE_SUPPLIER_STEP, step: LATE_SUPPLIER_STEP };
}
const BLOCK_STEP = 600_000;

export const PROFILE_BASE_URL = 'https://profiles.srs.example/suppliers/';

// ---------------------------------------------------------------- word lists

const DATA_SOURCES: ReadonlyArray<[name: string, vendor: string, type: string]> = [
  ['Northwind ESG Ratings', 'Northwind Analytics', 'custom'],
  ['Open Supply Audit', 'Open Supply Initiative', 'audit'],
  ['Harbourline Labour Watch', 'Harbourline Research', 'custom'],
  ['Verdant Ledger Carbon Disclosures', 'Verdant Ledger', 'custom'],
  ['Meridian Social Compliance Audits', 'Meridian Assurance Partners', 'audit'],
  ['Kestrel Media Monitor', 'Kestrel Intelligence', 'custom'],
  ['Bluewater Stewardship Registry', 'Bluewater Alliance', 'certification'],
  ['Tallgrass Ethics Screening', 'Tallgrass Compliance', 'custom'],
  ['Ironbridge Supplier Questionnaire', 'Ironbridge Procurement Services', 'custom'],
  ['Cobalt Trace Minerals Registry', 'Cobalt Trace', 'custom'],
  ['Lumen Worker Voice Surveys', 'Lumen Labs', 'custom'],
  ['Greenfield Certification Index', 'Greenfield Standards Council', 'certification'],
  ['Atlas Adverse Media', 'Atlas Signals', 'custom'],
  ['Sable Anti-Bribery Checks', 'Sable Risk Services', 'custom'],
  ['Polar Forest Traceability', 'Polar Forest Trust', 'custom'],
  ['Quarry Lane Safety Records', 'Quarry Lane Data', 'custom'],
  ['Riverstone Water Disclosures', 'Riverstone Institute', 'custom'],
  ['Summit Procurement Self-Assessment', 'Summit Procurement Network', 'custom'],
  ['Tidewater Shipping Emissions', 'Tidewater Maritime Data', 'custom'],
  ['Cedar Diversity Reporting', 'Cedar Workplace Analytics', 'custom'],
  ['Halcyon Sanctions Screening', 'Halcyon Compliance', 'custom'],
  ['Orchard Food Safety Audits', 'Orchard Assurance', 'audit'],
  ['Granite Circularity Tracker', 'Granite Circular Economy Lab', 'custom'],
  ['Beacon Grievance Channel', 'Beacon Ethics Hotline', 'custom'],
  ['Saltmarsh Biodiversity Screening', 'Saltmarsh Ecology', 'custom'],
  ['Copperleaf Cyber Posture', 'Copperleaf Security', 'custom'],
  ['Windrose Country Risk Index', 'Windrose Institute', 'risk_index'],
  ['Aquifer Water Stress Atlas', 'Aquifer Analytics', 'risk_index'],
  ['Fairwork Labour Risk Map', 'Fairwork Observatory', 'risk_index'],
  ['Clearview Governance Risk Index', 'Clearview Foundation', 'risk_index'],
];

const ENV = 'Environment';
const LAB = 'Labour & Human Rights';
const ETH = 'Ethics';
const PROC = 'Sustainable Procurement';

const POLICY_PARAMETERS: ReadonlyArray<[name: string, category: string]> = [
  ['GHG emissions', ENV],
  ['Energy management', ENV],
  ['Water stewardship', ENV],
  ['Waste & circularity', ENV],
  ['Biodiversity & land use', ENV],
  ['Health & safety', LAB],
  ['Working conditions', LAB],
  ['Child & forced labour', LAB],
  ['Diversity, equity & inclusion', LAB],
  ['Freedom of association', LAB],
  ['Anti-bribery & corruption', ETH],
  ['Fair competition', ETH],
  ['Information security', ETH],
  ['Responsible marketing', ETH],
  ['Supplier environmental practices', PROC],
  ['Supplier social practices', PROC],
  ['Responsible minerals sourcing', PROC],
];

const CATEGORIES: readonly string[] = [
  'Raw materials',
  'Logistics',
  'Packaging',
  'Electronic components',
  'Chemicals',
  'Textiles & apparel',
  'Food ingredients',
  'Facilities & services',
  'IT & software',
  'Machinery & equipment',
  'Metals',
  'Professional services',
];

interface ScorecardTemplate {
  name: string;
  groupName: string;
  parameters: readonly string[];
  appliesToAll?: boolean;
}

const SCORECARDS: readonly ScorecardTemplate[] = [
  {
    name: 'Responsible Sourcing Baseline',
    groupName: 'Corporate',
    parameters: ['GHG emissions', 'Health & safety', 'Working conditions', 'Anti-bribery & corruption', 'Supplier social practices'],
    appliesToAll: true,
  },
  { name: 'Climate Transition', groupName: 'Corporate', parameters: ['GHG emissions', 'Energy management', 'Supplier environmental practices'] },
  {
    name: 'Human Rights Due Diligence',
    groupName: 'Corporate',
    parameters: ['Working conditions', 'Child & forced labour', 'Freedom of association', 'Diversity, equity & inclusion'],
  },
  {
    name: 'Packaging & Circularity',
    groupName: 'Category teams',
    parameters: ['Waste & circularity', 'Water stewardship', 'Biodiversity & land use', 'Supplier environmental practices'],
  },
  {
    name: 'Business Ethics & Integrity',
    groupName: 'Legal & Compliance',
    parameters: ['Anti-bribery & corruption', 'Fair competition', 'Information security', 'Responsible marketing'],
  },
  {
    name: 'Conflict Minerals Programme',
    groupName: 'Category teams',
    parameters: ['Responsible minerals sourcing', 'Child & forced labour', 'Supplier social practices'],
  },
  { name: 'Logistics Emissions', groupName: 'Category teams', parameters: ['GHG emissions', 'Energy management', 'Health & safety'] },
  {
    name: 'Strategic Supplier Review',
    groupName: 'Procurement',
    parameters: ['GHG emissions', 'Water stewardship', 'Health & safety', 'Working conditions', 'Information security', 'Supplier environmental practices'],
  },
];

const PLACES: readonly string[] = [
  'Embudo Valley', 'Rhine', 'Baltic', 'Sierra Madre', 'Kestrel', 'Northgate', 'Pearl River', 'Danube', 'Cascade', 'Atlas',
  'Lakeshore', 'Red Rock', 'Harbor Point', 'Silverline', 'Blue Ridge', 'Tagus', 'Vistula', 'Mekong', 'Andes', 'Highland',
  'Bergen', 'Alder Creek', 'Granite Bay', 'Ironbridge', 'Westfield', 'East Bay', 'Suncoast', 'Nordic', 'Pacific Rim', 'Oakmont',
  'Saltire', 'Lowland', 'Juniper', 'Three Rivers', 'Cape Verde', 'Golden Plains', 'Marlow', 'Thornbury', 'Yangtze', 'Ganges',
  'Bosphorus', 'Anatolia', 'Douro', 'Po Valley', 'Zephyr', 'Evergreen', 'Copper Canyon', 'Riverside', 'Stonebridge', 'Falcon',
  'Orinoco', 'Kilimanjaro', 'Lakeland', 'Meseta', 'Carpathian', 'Sundarban', 'Coral Coast', 'Aurora', 'Windmill', 'Hanse',
];

interface Core {
  word: string;
  industries: readonly string[];
  categories: readonly string[];
}

const CORES: readonly Core[] = [
  { word: 'Organics', industries: ['30202010', '30202030'], categories: ['Food ingredients', 'Raw materials'] },
  { word: 'Precision Castings', industries: ['15104050', '20106020'], categories: ['Metals', 'Machinery & equipment'] },
  { word: 'Packaging', industries: ['15103020', '15103010'], categories: ['Packaging'] },
  { word: 'Polymers', industries: ['15101010', '15101050'], categories: ['Chemicals', 'Raw materials'] },
  { word: 'Textile Mills', industries: ['25203030'], categories: ['Textiles & apparel'] },
  { word: 'Apparel', industries: ['25203010', '25203030'], categories: ['Textiles & apparel'] },
  { word: 'Footwear', industries: ['25203020'], categories: ['Textiles & apparel'] },
  { word: 'Electronics', industries: ['45203015', '45203020'], categories: ['Electronic components'] },
  { word: 'Semiconductor Materials', industries: ['45301010'], categories: ['Electronic components', 'Raw materials'] },
  { word: 'Freight', industries: ['20304030', '20301010'], categories: ['Logistics'] },
  { word: 'Shipping Lines', industries: ['20303010', '20305030'], categories: ['Logistics'] },
  { word: 'Steelworks', industries: ['15104050'], categories: ['Metals', 'Raw materials'] },
  { word: 'Aluminium Extrusions', industries: ['15104010'], categories: ['Metals'] },
  { word: 'Specialty Chemicals', industries: ['15101050'], categories: ['Chemicals'] },
  { word: 'Fertilizers', industries: ['15101030'], categories: ['Chemicals', 'Raw materials'] },
  { word: 'Paper Mills', industries: ['15105020', '15105010'], categories: ['Packaging', 'Raw materials'] },
  { word: 'Timber', industries: ['15105010'], categories: ['Raw materials'] },
  { word: 'Foods', industries: ['30202030'], categories: ['Food ingredients'] },
  { word: 'Dairy Cooperative', industries: ['30202030', '30202010'], categories: ['Food ingredients'] },
  { word: 'Coffee Traders', industries: ['30202010', '30101020'], categories: ['Food ingredients'] },
  { word: 'Facility Services', industries: ['20201050', '20201070'], categories: ['Facilities & services'] },
  { word: 'Staffing', industries: ['20202010'], categories: ['Professional services'] },
  { word: 'Consulting', industries: ['20202020'], categories: ['Professional services'] },
  { word: 'Software', industries: ['45103010'], categories: ['IT & software'] },
  { word: 'Data Systems', industries: ['45102010', '45103020'], categories: ['IT & software'] },
  { word: 'Machine Works', industries: ['20106020'], categories: ['Machinery & equipment'] },
  { word: 'Electrical Components', industries: ['20104010'], categories: ['Electronic components', 'Machinery & equipment'] },
  { word: 'Auto Parts', industries: ['25101010'], categories: ['Machinery & equipment', 'Metals'] },
  { word: 'Tyre & Rubber', industries: ['25101020'], categories: ['Raw materials'] },
  { word: 'Glassworks', industries: ['15103010'], categories: ['Packaging'] },
  { word: 'Cement', industries: ['15102010'], categories: ['Raw materials'] },
  { word: 'Printing', industries: ['20201010'], categories: ['Packaging', 'Professional services'] },
  { word: 'Pharma Ingredients', industries: ['35202010', '15101050'], categories: ['Chemicals'] },
  { word: 'Medical Supplies', industries: ['35101020'], categories: ['Facilities & services'] },
  { word: 'Renewable Power', industries: ['55105020'], categories: ['Facilities & services'] },
  { word: 'Mining', industries: ['15104020', '15104025'], categories: ['Raw materials', 'Metals'] },
];

/** [iso3, weight, legal suffixes] */
const SUPPLIER_COUNTRIES: ReadonlyArray<[string, number, readonly string[]]> = [
  ['CHN', 14, ['Co., Ltd.']],
  ['USA', 10, ['Inc.', 'LLC', 'Corp.']],
  ['DEU', 8, ['GmbH', 'AG', 'GmbH & Co. KG']],
  ['IND', 7, ['Pvt. Ltd.', 'Ltd.']],
  ['VNM', 5, ['JSC', 'Co., Ltd.']],
  ['MEX', 4, ['S.A. de C.V.']],
  ['TUR', 4, ['A.Ş.']],
  ['ITA', 4, ['S.p.A.', 'S.r.l.']],
  ['FRA', 4, ['SAS', 'S.A.']],
  ['GBR', 4, ['Ltd', 'plc']],
  ['POL', 3, ['Sp. z o.o.', 'S.A.']],
  ['BGD', 3, ['Ltd.']],
  ['IDN', 3, ['PT']],
  ['THA', 3, ['Co., Ltd.', 'PCL']],
  ['JPN', 3, ['K.K.', 'Co., Ltd.']],
  ['KOR', 3, ['Co., Ltd.']],
  ['ESP', 3, ['S.L.', 'S.A.']],
  ['NLD', 3, ['B.V.', 'N.V.']],
  ['BRA', 3, ['Ltda.', 'S.A.']],
  ['CZE', 2, ['s.r.o.', 'a.s.']],
  ['PRT', 2, ['Lda.', 'S.A.']],
  ['MYS', 2, ['Sdn. Bhd.']],
  ['CAN', 2, ['Inc.', 'Ltd.']],
  ['SWE', 2, ['AB']],
  ['ZAF', 1, ['(Pty) Ltd']],
  ['MAR', 1, ['SARL']],
  ['EGY', 1, ['S.A.E.']],
  ['KEN', 1, ['Ltd']],
  ['CHL', 1, ['SpA', 'S.A.']],
  ['PER', 1, ['S.A.C.']],
  ['COL', 1, ['S.A.S.']],
  ['AUS', 1, ['Pty Ltd']],
  ['PHL', 1, ['Inc.']],
  ['PAK', 1, ['(Pvt.) Ltd.']],
  ['LKA', 1, ['(Pvt) Ltd']],
  ['ROU', 1, ['S.R.L.']],
  ['HUN', 1, ['Kft.']],
  ['DNK', 1, ['A/S', 'ApS']],
  ['BEL', 1, ['BV', 'NV']],
  ['AUT', 1, ['GmbH']],
  ['CHE', 1, ['AG', 'SA']],
];

const BUYERS: readonly string[] = ['A. Okafor', 'M. Lindqvist', 'S. Ramirez', 'J. Chen', 'P. Novak', 'R. Iyer', 'L. Moreau', 'K. Tanaka'];

interface EventTemplate {
  name: string;
  summary: string;
}

const EVENTS: Record<string, { pos: readonly EventTemplate[]; neg: readonly EventTemplate[] }> = {
  [ENV]: {
    pos: [
      { name: '{s} cuts direct emissions at its {c} operations', summary: '{s} reported lower scope 1 and 2 emissions after switching its {c} operations to renewable electricity.' },
      { name: '{s} achieves ISO 14001 certification', summary: 'An accredited body certified the environmental management system of {s} across its sites in {c}.' },
      { name: '{s} commissions on-site solar array', summary: 'A new rooftop solar installation is expected to cover a fifth of the electricity demand of {s}.' },
      { name: '{s} launches take-back scheme for used products', summary: '{s} will collect and recycle end-of-life products from customers in {c}.' },
    ],
    neg: [
      { name: '{s} fined over wastewater discharge', summary: 'Regulators in {c} fined {s} after effluent from one of its plants exceeded permitted limits.' },
      { name: 'Residents report air pollution near {s} plant', summary: 'Local residents in {c} filed complaints about emissions from a facility operated by {s}.' },
      { name: '{s} misses its published emissions target', summary: 'The annual report of {s} shows emissions rising despite a reduction commitment.' },
    ],
  },
  [LAB]: {
    pos: [
      { name: '{s} signs living-wage commitment', summary: '{s} committed to paying a living wage to all employees and on-site contractors in {c}.' },
      { name: '{s} publishes first human rights due-diligence report', summary: 'The report of {s} maps salient human rights risks and the remediation steps taken.' },
      { name: '{s} recognised for workplace safety record', summary: 'An industry association in {c} recognised {s} for three years without a lost-time injury.' },
    ],
    neg: [
      { name: 'Inspectors cite {s} for excessive overtime', summary: 'Labour inspectors in {c} found working hours at {s} above legal limits during peak season.' },
      { name: 'Workers at {s} allege unpaid wages', summary: 'A workers\' group says employees of {s} in {c} were not paid for several weeks.' },
      { name: 'Serious injury reported at {s} facility', summary: 'A worker was seriously injured at a {s} site in {c}; authorities opened an investigation.' },
    ],
  },
  [ETH]: {
    pos: [
      { name: '{s} completes anti-bribery programme audit', summary: 'An external review found the anti-bribery controls of {s} effective.' },
      { name: '{s} joins industry integrity pact', summary: '{s} signed a sector-wide pledge on transparent procurement and fair competition in {c}.' },
    ],
    neg: [
      { name: '{s} under investigation for procurement irregularities', summary: 'Prosecutors in {c} are examining contracts awarded to {s}.' },
      { name: '{s} discloses data breach', summary: '{s} reported unauthorised access to systems holding customer records.' },
    ],
  },
  [PROC]: {
    pos: [
      { name: '{s} maps its tier-2 suppliers', summary: '{s} published the list of its tier-2 suppliers and their audit status.' },
      { name: '{s} joins responsible minerals initiative', summary: '{s} committed to sourcing only from audited smelters and refiners.' },
    ],
    neg: [
      { name: 'Report links {s} to unverified smelters', summary: 'An NGO report names {s} among buyers of minerals from unaudited smelters.' },
      { name: 'Sub-supplier of {s} linked to deforestation', summary: 'Satellite analysis links a sub-supplier of {s} to recent forest clearing.' },
    ],
  },
};

const NEUTRAL_EVENTS: readonly EventTemplate[] = [
  { name: '{s} announces review of its supplier code of conduct', summary: '{s} said it will update its supplier code of conduct during the coming year.' },
  { name: '{s} updates its sustainability policy', summary: 'The revised policy of {s} restates existing commitments without new targets.' },
  { name: '{s} answers sustainability questionnaire', summary: '{s} completed the annual sustainability questionnaire of a major customer.' },
];

const OUTLETS: ReadonlyArray<[name: string, domain: string]> = [
  ['Trade Ledger', 'tradeledger.example'],
  ['Supply Chain Dispatch', 'supplychaindispatch.example'],
  ['Regional Business Journal', 'rbj.example'],
  ['Compliance Wire', 'compliancewire.example'],
  ['Industry Gazette', 'industrygazette.example'],
];

const VERIFIERS: readonly string[] = [
  'Meridian Assurance Partners',
  'Kestrel Verification Services',
  'Northbridge Carbon Audit',
  'Alpine Climate Assurance',
  'Self-declared',
];

const RISK_INDICATORS: Record<string, ReadonlyArray<[name: string, description: string]>> = {
  [ENV]: [
    ['Water stress', 'Ratio of water withdrawals to available renewable supply in the region.'],
    ['Air quality exposure', 'Population-weighted exposure to fine particulate matter.'],
    ['Deforestation pressure', 'Recent tree-cover loss in the sourcing region.'],
    ['Extreme heat exposure', 'Projected days above 35 °C per year.'],
  ],
  [LAB]: [
    ['Forced labour prevalence', 'Estimated prevalence of forced labour in the country and sector.'],
    ['Child labour prevalence', 'Share of children engaged in hazardous work.'],
    ['Freedom of association', 'Legal and practical protection of the right to organise.'],
    ['Occupational fatality rate', 'Fatal injuries per 100,000 workers.'],
  ],
  [ETH]: [
    ['Perceived public-sector corruption', 'Composite of expert and business surveys on corruption.'],
    ['Rule of law', 'Confidence in contract enforcement, property rights and the courts.'],
    ['Sanctions exposure', 'Presence of sanctioned entities in the sector and country.'],
  ],
  [PROC]: [
    ['Conflict-affected sourcing', 'Share of the commodity mined in conflict-affected or high-risk areas.'],
    ['Supply-chain opacity', 'Share of upstream volume without traceability data.'],
    ['Informal sector share', 'Share of employment in the informal economy.'],
  ],
};

const RISK_LEVELS: readonly string[] = ['Low', 'Medium', 'High'];
const RISK_RANK: Record<string, number> = { Low: 0, Medium: 1, High: 2 };

// ---------------------------------------------------------------- helpers

const DAY = 86_400_000;

/** YYYY-MM-DD of a UTC midnight-or-later timestamp (civil-from-days, no Date object: seeding calls this a lot). */
function isoDate(ms: number): string {
  const z = Math.floor(ms / DAY) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

function dateBetween(rng: Rng, from: string, to: string): number {
  const a = Date.parse(from + 'T00:00:00Z');
  const b = Date.parse(to + 'T00:00:00Z');
  return a + rng.int(0, Math.round((b - a) / DAY)) * DAY;
}

/** Lower-case ASCII letters and digits, runs of anything else as one "-", "&" as "and"; at most `max` characters. */
export function slugify(text: string, max = 60): string {
  let out = '';
  let dash = false;
  for (let i = 0; i < text.length && out.length < max; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (dash && out.length > 0) out += '-';
      dash = false;
      out += String.fromCharCode(c);
    } else if (c === 38 /* & */) {
      if (out.length > 0) out += '-';
      out += 'and';
      dash = true;
    } else {
      dash = true;
    }
  }
  return out.length > max ? out.slice(0, max).replace(/-+$/, '') : out;
}

function fill(template: string, s: string, c: string): string {
  return template.replaceAll('{s}', s).replaceAll('{c}', c);
}

const COUNTRY_NAME = new Map(COUNTRIES.map((c) => [c.iso3Code, c.commonName]));
const WEIGHTED_CODES = SUPPLIER_COUNTRIES.map(([c]) => c);
const WEIGHTS = SUPPLIER_COUNTRIES.map(([, w]) => w);
const SUFFIXES = new Map(SUPPLIER_COUNTRIES.map(([c, , s]) => [c, s]));

// Guard the word lists against the tables they refer to (fails at import, i.e. in every test run).
for (const core of CORES) {
  for (const code of core.industries) if (!SUB_INDUSTRY_BY_CODE.has(code)) throw new Error(`seed: unknown sub-industry ${code}`);
  for (const cat of core.categories) if (!CATEGORIES.includes(cat)) throw new Error(`seed: unknown category ${cat}`);
}
for (const code of WEIGHTED_CODES) if (!COUNTRY_NAME.has(code)) throw new Error(`seed: unknown country ${code}`);

// ---------------------------------------------------------------- reference data

interface Reference {
  dataSources: DataSourceRec[];
  policyParameters: PolicyParameterRec[];
  categories: CategoryRec[];
  scorecards: ScorecardRec[];
  // derived once per seed, used by every supplier
  paramById: Map<string, PolicyParameterRec>;
  categoryIdByName: Map<string, string>;
  baseline: ScorecardRec[];
  optional: ScorecardRec[];
  entrySources: DataSourceRec[];
  riskSources: DataSourceRec[];
}

function seedReference(seed: number): Reference {
  const rng = new Rng(deriveSeed(seed, 'reference'));

  const policyIds = new SeededUlids(rng, POLICY_BASE, 60_000, 3_600_000);
  const policyParameters = POLICY_PARAMETERS.map(([name, policyCategoryName]) => ({ id: policyIds.next(), name, policyCategoryName }));
  const paramByName = new Map(policyParameters.map((p) => [p.name, p]));

  const orgIds = new SeededUlids(rng, ORG_BASE, 60_000, 600_000);
  const organizationId = orgIds.next();
  const users = [orgIds.next(), orgIds.next(), orgIds.next()];

  const sourceIds = new SeededUlids(rng, DATA_SOURCE_BASE, 60_000, 86_400_000);
  const dataSources = DATA_SOURCES.map(([name, vendorName, dataSourceType]) => ({
    id: sourceIds.next(),
    name,
    vendorName,
    dataSourceType,
    logoUrl: `https://assets.srs.example/logos/${slugify(name)}.png`,
    website: `https://${slugify(vendorName)}.example`,
  }));

  const categoryIds = new SeededUlids(rng, CATEGORY_BASE, 1_000, 60_000);
  const categories = CATEGORIES.map((name) => ({ id: categoryIds.next(), name }));

  const scorecardIds = new SeededUlids(rng, SCORECARD_BASE, 3_600_000, 20 * 86_400_000);
  const scorecards = SCORECARDS.map((t): ScorecardRec => {
    const id = scorecardIds.next();
    return {
      id,
      name: t.name,
      groupName: t.groupName,
      organizationId,
      createdAt: new Date(scorecardIds.lastTime).toISOString(),
      createdBy: rng.pick(users),
      weight: t.appliesToAll ? 1 : rng.int(1, 3),
      items: t.parameters.map((name) => {
        const p = paramByName.get(name);
        if (!p) throw new Error(`seed: unknown policy parameter ${name}`);
        return { type: 'policy_parameter_item' as const, policyParameter: { ...p }, weight: rng.int(1, 5) };
      }),
      appliesToAll: t.appliesToAll === true,
    };
  });

  return {
    dataSources,
    policyParameters,
    categories,
    scorecards,
    paramById: new Map(policyParameters.map((p) => [p.id, p])),
    categoryIdByName: new Map(categories.map((c) => [c.name, c.id])),
    baseline: scorecards.filter((s) => s.appliesToAll),
    optional: scorecards.filter((s) => !s.appliesToAll),
    entrySources: dataSources.filter((d) => d.dataSourceType !== 'risk_index'),
    riskSources: dataSources.filter((d) => d.dataSourceType === 'risk_index'),
  };
}

// ---------------------------------------------------------------- suppliers

interface SupplierSeed {
  supplier: SupplierRec;
  scorecardIds: string[];
  entries: DataEntryRec[];
  meta: SupplierMeta;
}

/** What the lazily generated details of a seeded supplier depend on. */
interface SupplierMeta {
  index: number;
  rich: boolean;
  shortName: string;
  countryName: string;
  /** The policy parameters of the scorecards that apply to the supplier. */
  paramIds: string[];
}

function seedSupplier(seed: number, i: number, ref: Reference, usedNames: Set<string>): SupplierSeed {
  const rng = new Rng(deriveSeed(seed, 'supplier', i));
  const rich = i === 0 || i % 7 === 3;

  // identity
  const block = supplierIdBlock(i);
  const supplierIds = new SeededUlids(rng, block.start, 0, block.step - 1);
  const id = supplierIds.next();
  const country = rng.chance(0.04) ? rng.pick(COUNTRIES).iso3Code : rng.weighted(WEIGHTED_CODES, WEIGHTS);
  const suffix = rng.pick(SUFFIXES.get(country) ?? ['Ltd', 'Co.']);
  const core = rng.pick(CORES);
  let shortName = `${rng.pick(PLACES)} ${core.word}`;
  for (let tries = 0; usedNames.has(shortName) && tries < 8; tries++) shortName = `${rng.pick(PLACES)} ${core.word}`;
  if (usedNames.has(shortName)) shortName = `${shortName} ${i + 1}`;
  usedNames.add(shortName);
  const name = suffix === 'PT' ? `PT ${shortName}` : `${shortName} ${suffix}`;

  const industries = new Set(rng.sample(core.industries, rich ? core.industries.length : rng.int(1, core.industries.length)));
  if ((rich && industries.size < 2) || rng.chance(0.15)) industries.add(rng.pick(SUB_INDUSTRIES).code);
  const categoryNames = rng.sample(core.categories, rich ? Math.max(1, rng.int(1, 2)) : rng.int(0, 2));
  const categoryIds = categoryNames.map((n) => ref.categoryIdByName.get(n)!);

  const customFields: SupplierRec['customFields'] = [];
  if (rich || rng.chance(0.8)) customFields.push({ fieldLabel: 'Tier', fieldValue: String(rng.weighted([1, 2, 3], [5, 3, 2])) });
  if (rich || rng.chance(0.5)) customFields.push({ fieldLabel: 'Spend band', fieldValue: rng.pick(['A', 'B', 'C', 'D']) });
  if (rng.chance(0.4)) customFields.push({ fieldLabel: 'Buyer', fieldValue: rng.pick(BUYERS) });
  if (rng.chance(0.3)) customFields.push({ fieldLabel: 'Contract renewal', fieldValue: isoDate(dateBetween(rng, '2026-01-01', '2028-12-31')) });

  const supplier: SupplierRec = {
    id,
    name,
    countryIso3Code: country,
    website: rich || rng.chance(0.9) ? `https://www.${slugify(shortName)}.example` : null,
    status: 'current',
    customerSupplierId: rich || rng.chance(0.9) ? `SUPP-${10001 + i}` : null,
    industryCodes: [...industries],
    categoryIds,
    contacts: [],
    customFields,
    publicSupplierProfileUrl: PROFILE_BASE_URL + id,
  };

  // scorecards (besides the baseline, which applies to everyone)
  const scorecards = rng.sample(ref.optional, rich ? rng.int(1, 2) : rng.weighted([0, 1, 2], [3, 5, 2]));
  const paramIds: string[] = [];
  for (const sc of [...ref.baseline, ...scorecards]) {
    for (const it of sc.items) if (!paramIds.includes(it.policyParameter.id)) paramIds.push(it.policyParameter.id);
  }

  // data entries (their news events are generated lazily, see seedSupplierDetails)
  const entrySources = ref.entrySources;
  const entryIds = new SeededUlids(rng, ENTRY_BASE + i * BLOCK_STEP, 1_000, 9_000);
  const entryCount = rich ? rng.int(4, 8) : rng.chance(0.7) ? rng.int(1, 5) : 0;
  const richSources = rich ? rng.sample(entrySources, 3) : [];
  const entries: DataEntryRec[] = [];
  for (let j = 0; j < entryCount; j++) {
    const entryId = entryIds.next();
    const dataSourceId = (richSources[j] ?? rng.pick(entrySources)).id;
    const score = rng.weighted(SCORES, SCORE_WEIGHTS);
    const informed = rng.sample(paramIds, rich && j < 2 ? 2 : rng.int(1, 3));
    if (!rich && rng.chance(0.1)) {
      const extra = rng.pick(ref.policyParameters).id;
      if (!informed.includes(extra)) informed.push(extra);
    }
    const parameterScores = informed.map((policyParameterId) => ({
      policyParameterId,
      score: Math.max(-3, Math.min(3, score + rng.weighted(JITTER, JITTER_WEIGHTS))),
    }));
    // validity: mostly valid today (and for the next couple of years), some expired, some not yet issued
    const kind = rich && j < 3 ? 'valid' : rng.weighted(VALIDITY, VALIDITY_WEIGHTS);
    let issue: number;
    let expiry: number;
    if (kind === 'valid') {
      issue = dateBetween(rng, '2024-01-01', '2026-09-30');
      expiry = dateBetween(rng, '2027-01-01', '2028-12-31');
    } else if (kind === 'expired') {
      issue = dateBetween(rng, '2024-01-01', '2024-12-31');
      expiry = Math.min(issue + rng.int(180, 540) * DAY, Date.UTC(2026, 5, 30));
    } else {
      issue = dateBetween(rng, '2027-01-01', '2028-03-31');
      expiry = Math.min(issue + rng.int(180, 270) * DAY, Date.UTC(2028, 11, 31));
    }
    entries.push({
      id: entryId,
      supplierId: id,
      dataSourceId,
      score,
      isClaim: rich && j === 0 ? false : rng.chance(0.25),
      issueDate: isoDate(issue),
      expiryDate: isoDate(expiry),
      parameterScores,
    });
  }

  return {
    supplier,
    scorecardIds: scorecards.map((s) => s.id),
    entries,
    meta: { index: i, rich, shortName, countryName: COUNTRY_NAME.get(country) ?? country, paramIds },
  };
}

const SCORES = [-3, -2, -1, 0, 1, 2, 3];
const SCORE_WEIGHTS = [7, 12, 16, 15, 20, 18, 12];
const JITTER = [-1, 0, 1];
const JITTER_WEIGHTS = [1, 3, 1];
const VALIDITY = ['valid', 'expired', 'future'] as const;
const VALIDITY_WEIGHTS = [72, 14, 14];
const RISK_YEARS = [2022, 2023, 2024, 2025];
const FOLLOW_UPS = ['Follow-up', 'Analysis', 'Update'];

/**
 * The details of a seeded supplier: news events (one per data entry, with
 * articles), emission reports and risk data. Generated on first use from the
 * supplier's own PRNG stream, so seeding stays cheap and the result is the same
 * whenever it is generated.
 */
function seedSupplierDetails(seed: number, ref: Reference, supplier: SupplierRec, meta: SupplierMeta, entries: readonly DataEntryRec[]): SupplierDetails {
  const i = meta.index;
  const rng = new Rng(deriveSeed(seed, 'supplier-details', i));
  const { rich, shortName, countryName } = meta;

  const newsIds = new SeededUlids(rng, NEWS_BASE + i * BLOCK_STEP, 1_000, 9_000);
  const articleIds = new SeededUlids(rng, ARTICLE_BASE + i * BLOCK_STEP, 1_000, 2_000);
  const newsEvents: NewsEventRec[] = [];
  for (const entry of entries) {
    const mainParam = ref.paramById.get(entry.parameterScores[0]!.policyParameterId)!;
    const events = EVENTS[mainParam.policyCategoryName]!;
    const t = rng.pick(entry.score === 0 ? NEUTRAL_EVENTS : entry.score > 0 ? events.pos : events.neg);
    const eventName = fill(t.name, shortName, countryName);
    const summary = fill(t.summary, shortName, countryName);
    let published = Date.parse(entry.issueDate + 'T00:00:00Z') - rng.int(0, 45) * DAY;
    const outlets = rng.sample(OUTLETS, rng.int(1, 3));
    const drafts: Array<{ id: string; outlet: string; domain: string; title: string; published: number }> = [];
    for (let k = 0; k < outlets.length; k++) {
      const [outlet, domain] = outlets[k]!;
      const title = k === 0 ? eventName : `${rng.pick(FOLLOW_UPS)}: ${eventName}`;
      drafts.push({ id: articleIds.next(), outlet, domain, title, published }); // rng order as before: ids unchanged
      published += rng.int(1, 20) * DAY;
    }
    // News is never dated after the seed's own present: an entry issued later (not yet valid) was reported
    // before it, so its articles keep their spacing and end by LATEST_NEWS (they were dated up to 2028).
    const shift = Math.max(0, drafts[drafts.length - 1]!.published - LATEST_NEWS);
    const articles: ArticleRec[] = drafts.map(({ id, outlet, domain, title, published: at }) => {
      const day = isoDate(at - shift);
      return { id, url: `https://${domain}/${day.slice(0, 4)}/${day.slice(5, 7)}/${slugify(title)}`, title, summary: `${outlet} reports: ${summary}`, publishedAt: day };
    });
    newsEvents.push({ id: newsIds.next(), dataEntryId: entry.id, name: eventName, summary, articles });
  }

  // emission reports
  const emissionReports: EmissionReportRec[] = [];
  if (rich || rng.chance(0.55)) {
    const emissionIds = new SeededUlids(rng, EMISSION_BASE + i * BLOCK_STEP, 1_000, 9_000);
    const years = rich ? 3 : rng.int(1, 4);
    const size = 10 ** (2 + rng.next() * 2.5);
    const verifier = rng.pick(VERIFIERS);
    for (let y = 2025 - years; y < 2025; y++) {
      const drift = 1 + (2024 - y) * (rng.next() * 0.08 - 0.02);
      const scopes: Array<[string, number]> = [
        ['scope_1', 0.5 + rng.next()],
        ['scope_2', 0.3 + rng.next() * 0.9],
      ];
      if (rich || rng.chance(0.5)) scopes.push(['scope_3', 3 + rng.next() * 9]);
      const reportedOn = Date.UTC(y + 1, rng.int(2, 6), rng.int(1, 28), rng.int(7, 18), rng.int(0, 59), rng.int(0, 59), rng.int(0, 999));
      const estimated = rng.chance(0.3);
      for (const [scope, factor] of scopes) {
        emissionReports.push({
          id: emissionIds.next(),
          supplierId: supplier.id,
          scope,
          fromDate: `${y}-01-01T00:00:00.000Z`,
          toDate: `${y}-12-31T23:59:59.999Z`,
          reportedOn: new Date(reportedOn).toISOString(),
          verifier: estimated ? 'Self-declared' : verifier,
          dataType: estimated || scope === 'scope_3' ? 'estimated' : 'actual',
          value: Math.round(size * factor * drift * 10) / 10,
          unit: 'tCO2e',
        });
      }
    }
  }

  // risk per policy parameter of the supplier's scorecards
  const risks = new Map<string, RiskRec>();
  if (rich || rng.chance(0.6)) {
    for (const pid of meta.paramIds) {
      if (!rich && !rng.chance(0.6)) continue;
      const param = ref.paramById.get(pid)!;
      const catalogue = RISK_INDICATORS[param.policyCategoryName] ?? [];
      const years = rng.sample(RISK_YEARS, rng.int(1, 2)).sort((a, b) => b - a);
      const riskEntries = years.map((year) => ({
        riskDataSourceId: rng.pick(ref.riskSources).id,
        year,
        riskIndicators: rng.sample(catalogue, rng.int(1, 3)).map(([indicator, description]) => ({
          riskLevel: rng.weighted(RISK_LEVELS, [4, 4, 2]),
          name: indicator,
          website: `https://risk-data.example/indicators/${slugify(indicator)}`,
          description,
        })),
      }));
      const latest = riskEntries[0]?.riskIndicators ?? [];
      let level = 'Low';
      for (const ind of latest) if ((RISK_RANK[ind.riskLevel] ?? 0) > (RISK_RANK[level] ?? 0)) level = ind.riskLevel;
      risks.set(pid, { riskLevel: level, riskEntries });
    }
  }

  return { newsEvents, emissionReports, risks };
}

// ---------------------------------------------------------------- entry point

/** How many suppliers' generated details the emulator keeps (see generateSeed). */
export const DETAILS_CACHE_SIZE = 2048;

export function generateSeed(seed: number, supplierCount: number): SeedData {
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  if (!Number.isInteger(supplierCount) || supplierCount < 1) throw new Error(`suppliers must be a positive integer, got ${supplierCount}`);
  const ref = seedReference(seed);
  const usedNames = new Set<string>();
  const suppliers: SupplierRec[] = [];
  const dataEntries: DataEntryRec[] = [];
  const metaById = new Map<string, { supplier: SupplierRec; meta: SupplierMeta; entries: DataEntryRec[] }>();
  const scorecardMembers = new Map<string, string[]>(ref.scorecards.map((s) => [s.id, []]));
  for (let i = 0; i < supplierCount; i++) {
    const s = seedSupplier(seed, i, ref, usedNames);
    suppliers.push(s.supplier);
    for (const e of s.entries) dataEntries.push(e);
    for (const sc of s.scorecardIds) scorecardMembers.get(sc)?.push(s.supplier.id);
    metaById.set(s.supplier.id, { supplier: s.supplier, meta: s.meta, entries: s.entries });
  }
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  // Already in id order (per-supplier time blocks); the sort only guards that.
  dataEntries.sort(byId);

  // The details are a pure function of (seed, supplier), so the cache only saves regenerating them: it keeps the
  // DETAILS_CACHE_SIZE most recently used. Unbounded, a score calculation over 100,000 suppliers kept every
  // supplier's news, emissions and risks alive: the emulator spent 6.1 of its 19.7 s of CPU in the garbage
  // collector, 4.1 of 16.8 s bounded, and the requests of `score calc --save` sent by bench/calc-save-floor.mjs
  // to a fresh `--suppliers 100000` emulator took 16.5-17.1 s before, 12.8-13.6 s after (2026-11-23).
  const detailsCache = new Map<string, SupplierDetails>();
  const details = (supplierId: string): SupplierDetails | undefined => {
    let d = detailsCache.get(supplierId);
    if (d) {
      detailsCache.delete(supplierId); // most recently used last
      detailsCache.set(supplierId, d);
      return d;
    }
    const m = metaById.get(supplierId);
    if (!m) return undefined;
    d = seedSupplierDetails(seed, ref, m.supplier, m.meta, m.entries);
    detailsCache.set(supplierId, d);
    if (detailsCache.size > DETAILS_CACHE_SIZE) detailsCache.delete(detailsCache.keys().next().value!);
    return d;
  };

  return {
    seed,
    supplierCount,
    dataSources: ref.dataSources.slice().sort(byId),
    policyParameters: ref.policyParameters.slice().sort(byId),
    categories: ref.categories.slice().sort(byId),
    scorecards: ref.scorecards.slice().sort(byId),
    suppliers,
    dataEntries,
    scorecardMembers,
    details,
  };
}
