import * as z from "zod";

/**
 * The price watches' settings (`alerts.*`): quotas per tenant, the share of the upstream's budget their checks
 * may spend, their schedule, and how webhooks are delivered. See the price alerts guide.
 */

const QuotaSchema = z.strictObject({
  /** Watches a tenant may hold at once (a new one beyond it is refused, 429). */
  watches: z.int().min(0).max(1_000_000).default(1_000),
  /** Day checks a tenant's watches may cause per hour (a check shared by several tenants counts for each). */
  checksPerHour: z.int().min(1).max(10_000_000).default(2_000),
});

const BudgetSchema = z.strictObject({
  /**
   * Upstream requests the deployment may make per hour (the upstream's contract, say). Absent: no upstream
   * (the simulator), and the checks spend nothing.
   */
  upstreamRequestsPerHour: z.int().min(1).max(100_000_000).optional(),
  /** The share of it the watches' checks may spend, every instance together (0.2: a fifth). */
  share: z.number().gt(0).max(1).default(0.2),
});

const ScheduleSchema = z.strictObject({
  /**
   * How often a day is checked a month or so before departure; nearer it tightens (a quarter of this in the last
   * three days), further away and while prices stay put it loosens, up to `maxIntervalMs`. Default 1 h.
   */
  baseIntervalMs: z.int().min(50).max(86_400_000).default(3_600_000),
  /** The tightest a day is ever checked. Default 15 min. */
  minIntervalMs: z.int().min(50).max(86_400_000).default(900_000),
  /** The loosest a day is ever checked. Default 12 h. */
  maxIntervalMs: z.int().min(50).max(604_800_000).default(43_200_000),
  /** How often an instance looks for checks and deliveries that are due. Default 1 s. */
  tickMs: z.int().min(10).max(60_000).default(1_000),
  /** How long an instance holds a check or a delivery before another may take it (renewed while it works). Default 90 s. */
  leaseMs: z.int().min(200).max(3_600_000).default(90_000),
  /** Checks one instance runs at once. Default 4. */
  concurrency: z.int().min(1).max(100).default(4),
});

const WebhooksSchema = z.strictObject({
  /**
   * Deliver to private, loopback, link-local and other non-public addresses (a receiver on the operator's own
   * network). Default false: such a webhook is refused when created and when delivered.
   */
  allowPrivateAddresses: z.boolean().default(false),
  /** How long one delivery waits for the receiver's answer. Default 10 s. */
  timeoutMs: z.int().min(100).max(120_000).default(10_000),
  /** How long a failing delivery is retried before it is given up. Default 24 h. */
  retryForMs: z.int().min(100).max(604_800_000).default(86_400_000),
  /** The first retry's wait; each next one doubles, with jitter, up to `maxRetryMs`. Default 30 s. */
  firstRetryMs: z.int().min(10).max(86_400_000).default(30_000),
  /** The longest wait between two tries. Default 1 h. */
  maxRetryMs: z.int().min(10).max(86_400_000).default(3_600_000),
  /** How long a rotated secret still signs deliveries beside the new one. Default 24 h. */
  secretGraceMs: z.int().min(0).max(604_800_000).default(86_400_000),
});

/** A tenant's own quotas, over `quota`: what it leaves out is `quota`'s. */
const TenantQuotaSchema = z.strictObject({
  watches: z.int().min(0).max(1_000_000).optional(),
  checksPerHour: z.int().min(1).max(10_000_000).optional(),
});

/** `alerts.*`. */
export const AlertSettingsSchema = z.strictObject({
  /** Quotas of every tenant. */
  quota: QuotaSchema.prefault({}),
  /** Quotas of some tenants over `quota`, by API key name or agency username (or tenant id, `apikey:<name>`). */
  tenants: z.record(z.string(), TenantQuotaSchema).default({}),
  budget: BudgetSchema.prefault({}),
  schedule: ScheduleSchema.prefault({}),
  webhooks: WebhooksSchema.prefault({}),
});

/** The alerts' settings as validated. */
export type AlertSettings = z.output<typeof AlertSettingsSchema>;
