import { parser } from '@prometheus-io/lezer-promql';
import { METRIC_FAMILIES, PROCESS_FAMILIES, type MetricFamily } from '@app/runtime/telemetry';

/** What a PromQL expression was found to hold: syntax errors (by offset) and the metric names it selects. */
export interface PromqlCheck {
  errors: number[];
  metrics: string[];
}

/** Parses `expr` with the Prometheus project's own PromQL grammar (`@prometheus-io/lezer-promql`). */
export function checkPromql(expr: string): PromqlCheck {
  const tree = parser.parse(expr);
  const errors: number[] = [];
  const metrics: string[] = [];
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(node.from);
      // A selector's metric name is the Identifier directly under its VectorSelector.
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.push(expr.slice(node.from, node.to));
    },
  });
  return { errors, metrics };
}

/** Every series name the service serves: the catalogue's families (histograms as `_bucket`, `_sum`, `_count`) and the process families. */
export function servedSeriesNames(): Set<string> {
  const names = new Set<string>(PROCESS_FAMILIES);
  for (const f of METRIC_FAMILIES as readonly MetricFamily[]) {
    if (f.type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(f.name + suffix);
    else names.add(f.name);
  }
  return names;
}

/** The problems of one expression: syntax errors, and metric names the service does not serve. */
export function problemsOf(where: string, expr: string, served: Set<string> = servedSeriesNames()): string[] {
  const { errors, metrics } = checkPromql(expr);
  const problems = errors.map((at) => `${where}: PromQL syntax error at offset ${at} in ${JSON.stringify(expr)}`);
  if (metrics.length === 0) problems.push(`${where}: selects no metric: ${JSON.stringify(expr)}`);
  for (const m of metrics) if (!served.has(m)) problems.push(`${where}: ${m} is not a metric the service serves`);
  return problems;
}

/** The family a series name belongs to (a histogram's series to the histogram). */
export function familyOf(series: string): string {
  return series.replace(/_(bucket|sum|count)$/, '');
}
