import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { load } from 'js-yaml';
import { METRIC_FAMILIES, type MetricFamily } from '@app/runtime/telemetry';
import { checkPromql, familyOf, problemsOf } from './promql-check';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: { expr: string }[];
}

// Prometheus's own checker, where it is installed (Debian's `prometheus` package has it); CI has not.
const promtool = spawnSync('promtool', ['--version']).status === 0;
if (!promtool)
  console.warn('promtool check of ops/prometheus/alerts.yml SKIPPED: promtool is not installed (the schema and PromQL checks run)');

const rules = load(read('ops/prometheus/alerts.yml')) as { groups: { name: string; rules: AlertRule[] }[] };
const dashboard = JSON.parse(read('ops/grafana/trainee-records.json')) as { uid: string; panels: Panel[] };

/**
 * The operators' configuration (docs/observability.md): the Prometheus alerting rules checked
 * against a schema of rule files (promtool is not in the package registries this project installs
 * from), every PromQL expression of the rules and the dashboard parsed with the Prometheus project's
 * grammar and held to the metrics the service serves, and the compose profile that runs them.
 */
describe('ops/: alerting rules, dashboard and the observability profile', () => {
  it('the alerting rules are a valid Prometheus rule file', () => {
    const ajv = new Ajv({ allErrors: true });
    const validate = ajv.compile(JSON.parse(read('ops/prometheus/rules.schema.json')));
    expect([validate(rules), validate.errors ?? []]).toEqual([true, []]);
    const names = rules.groups.map((g) => g.name);
    expect(new Set(names).size).toBe(names.length);
  });

  (promtool ? it : it.skip)('promtool accepts the alerting rules', () => {
    const run = spawnSync('promtool', ['check', 'rules', join(ROOT, 'ops/prometheus/alerts.yml')], { encoding: 'utf8' });
    expect([run.status, run.stdout + run.stderr]).toEqual([0, expect.stringContaining('SUCCESS')]);
  });

  it('the schema refuses what Prometheus refuses', () => {
    const validate = new Ajv().compile(JSON.parse(read('ops/prometheus/rules.schema.json')));
    const rule = { alert: 'A', expr: 'up == 0', for: '5m' };
    expect(validate({ groups: [{ name: 'g', rules: [rule] }] })).toBe(true);
    expect(validate({ groups: [{ name: 'g', rules: [{ ...rule, for: '5 minutes' }] }] })).toBe(false);
    expect(validate({ groups: [{ name: 'g', rules: [{ alert: 'A' }] }] })).toBe(false);
    expect(validate({ groups: [{ name: 'g', rules: [{ ...rule, severity: 'page' }] }] })).toBe(false);
    expect(validate({ groups: [{ rules: [rule] }] })).toBe(false);
  });

  it('the alerts cover projector lag, an event it is stuck on, storage faults, errors, read and write latency and the registry (docs/observability.md "Dashboard and alerts")', () => {
    const alerts = rules.groups.flatMap((g) => g.rules.map((r) => r.alert));
    expect(alerts).toEqual(
      expect.arrayContaining([
        'ProjectorLagging',
        'HighErrorRate',
        'ReadLatencyP99High',
        'WriteLatencyP99High',
        'ProjectorStuckOnEvent',
        'StorageFault',
        'RegistryErrors',
      ]),
    );
  });

  it('every alert and dashboard expression is valid PromQL over metrics the service serves', () => {
    const problems = [
      ...rules.groups.flatMap((g) => g.rules.flatMap((r) => problemsOf(`alert ${r.alert ?? r.record}`, r.expr))),
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => problemsOf(`panel "${p.title}"`, t.expr))),
    ];
    expect(problems).toEqual([]);
  });

  it('the check finds a syntax error and an unknown metric', () => {
    expect(checkPromql('sum(rate(trainee_records_http_requests_total[5m])').errors.length).toBeGreaterThan(0);
    expect(problemsOf('t', 'rate(trainee_records_no_such_total[5m]) > 0')).toEqual([
      't: trainee_records_no_such_total is not a metric the service serves',
    ]);
    expect(checkPromql('histogram_quantile(0.99, sum by (le) (rate(a_bucket{x="y"}[5m]))) / b').metrics).toEqual(['a_bucket', 'b']);
  });

  it('the dashboard graphs every family, on the Prometheus datasource, with unique panel ids', () => {
    const graphed = new Set(dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => checkPromql(t.expr).metrics.map(familyOf))));
    const missing = (METRIC_FAMILIES as readonly MetricFamily[]).map((f) => f.name).filter((n) => !graphed.has(n));
    expect(missing).toEqual([]);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.panels.filter((p) => p.type !== 'row' && p.datasource?.uid !== 'prometheus')).toEqual([]);
    expect(dashboard.uid).toBe('trainee-records');
  });

  it('docker-compose.yml runs Prometheus and Grafana in the observability profile only, on files of this repo', () => {
    const compose = load(read('docker-compose.yml')) as {
      services: Record<string, { profiles?: string[]; volumes?: string[]; environment?: Record<string, string> }>;
    };
    const profiled = Object.entries(compose.services).filter(([, s]) => s.profiles);
    expect(profiled.map(([name, s]) => [name, s.profiles])).toEqual([
      ['prometheus', ['observability']],
      ['grafana', ['observability']],
    ]);
    for (const [, service] of profiled) {
      for (const volume of service.volumes ?? []) expect([volume, existsSync(join(ROOT, volume.split(':')[0]))]).toEqual([volume, true]);
    }
    expect(compose.services.api.environment?.METRICS_PORT).toBe('9464');
    expect(compose.services.projector.environment?.METRICS_PORT).toBe('9465');
    const scrape = read('ops/prometheus/prometheus.yml');
    expect(scrape).toContain('api:9464');
    expect(scrape).toContain('projector:9465');
  });

  it('every service restarts unless stopped, and MongoDB is healthy only once it is the primary', () => {
    const compose = load(read('docker-compose.yml')) as {
      services: Record<string, { restart?: string; healthcheck?: { test: string[] } }>;
    };
    expect(Object.entries(compose.services).filter(([, s]) => s.restart !== 'unless-stopped')).toEqual([]);
    const health = compose.services.mongodb.healthcheck!.test.join(' ');
    expect(health).toContain('rs.status().myState');
    expect(health).toMatch(/grep -qx 1$/);
  });
});
