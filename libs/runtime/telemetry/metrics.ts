import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRIC_FAMILIES, type MetricFamily, type MetricName } from './metric-catalogue';

/** The role a process plays: which families it serves (see {@link MetricFamily.served}). */
export type ProcessRole = 'api' | 'projector';

type FamilyOf<T extends MetricFamily['type']> = Extract<(typeof METRIC_FAMILIES)[number], { type: T }>['name'];

/** A reading taken when metrics are scraped (gauges of state held elsewhere, such as a store's). */
export type ScrapeCollector = () => Promise<void>;

/** What a failing scrape-time reading is told to. */
export interface MetricsLogger {
  warn(message: string, context?: Record<string, unknown>): void;
}

/** How long one scrape-time reading may take before the scrape goes on without it, ms. */
const COLLECT_TIMEOUT_MS = 2_000;

/**
 * The metrics of one process (docs/observability.md): the families of its roles from
 * {@link METRIC_FAMILIES} in a `prom-client` registry of its own, the Node.js process metrics,
 * and readings taken at scrape time. A family of another role is not registered, so asking for it
 * throws (a programming error, caught by the tests).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly families = new Map<MetricName, Counter | Gauge | Histogram>();
  private readonly collectors: ScrapeCollector[] = [];

  constructor(
    roles: readonly ProcessRole[],
    private readonly logger: MetricsLogger,
    options: { processMetrics?: boolean } = {},
  ) {
    for (const family of METRIC_FAMILIES as readonly MetricFamily[]) {
      if (!family.served.some((r) => roles.includes(r))) continue;
      const config = { name: family.name, help: family.help, labelNames: [...family.labels], registers: [this.registry] };
      const metric =
        family.type === 'counter'
          ? new Counter(config)
          : family.type === 'gauge'
            ? new Gauge(config)
            : new Histogram({ ...config, buckets: [...(family.buckets ?? [])] });
      this.families.set(family.name as MetricName, metric);
    }
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** The counter `name`; throws when this process does not serve it. */
  counter(name: FamilyOf<'counter'>): Counter {
    return this.family(name) as Counter;
  }

  /** The gauge `name`; throws when this process does not serve it. */
  gauge(name: FamilyOf<'gauge'>): Gauge {
    return this.family(name) as Gauge;
  }

  /** The histogram `name` (observations in seconds); throws when this process does not serve it. */
  histogram(name: FamilyOf<'histogram'>): Histogram {
    return this.family(name) as Histogram;
  }

  /** Whether this process serves family `name`. */
  serves(name: MetricName): boolean {
    return this.families.has(name);
  }

  /** Adds a reading taken before each scrape (it sets gauges); one that fails or is slow is logged and left out. */
  onScrape(collector: ScrapeCollector): void {
    this.collectors.push(collector);
  }

  /** The Prometheus text exposition of every family, after the scrape-time readings. */
  async exposition(): Promise<string> {
    await Promise.all(this.collectors.map((c) => this.collect(c)));
    return this.registry.metrics();
  }

  /** The exposition's content type (`text/plain; version=0.0.4; charset=utf-8`). */
  get contentType(): string {
    return this.registry.contentType;
  }

  private family(name: MetricName): Counter | Gauge | Histogram {
    const metric = this.families.get(name);
    if (!metric) throw new Error(`metric ${name} is not served by this process`);
    return metric;
  }

  private async collect(collector: ScrapeCollector): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`took over ${COLLECT_TIMEOUT_MS} ms`)), COLLECT_TIMEOUT_MS);
    });
    try {
      await Promise.race([collector(), timeout]);
    } catch (err) {
      this.logger.warn('a metrics reading failed; scraped without it', { error: err instanceof Error ? err.message : String(err) });
    } finally {
      clearTimeout(timer);
    }
  }
}
