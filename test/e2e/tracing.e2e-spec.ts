import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { PageClient } from '../support/page-client';
import { ensureBuilt, TsProcess } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';

/**
 * Traces (docs/observability.md "Traces"): the API and the projector as their own processes, each
 * exporting over OTLP/HTTP to a receiver on loopback. One write makes one trace: the request's
 * span, its validation, append and projection wait, then the projector's span of the same event in
 * the other process and the registry process manager's (joined through the events' metadata). No
 * span holds a personal value, nor a query string, which may hold one.
 */
describe('traces across the API and the projector process', () => {
  const receiver = new OtlpReceiver();
  let dir: string;
  let api: TsProcess;
  let projector: TsProcess;
  let url: string;
  let token: string;

  beforeAll(async () => {
    ensureBuilt();
    await receiver.start();
    dir = mkdtempSync(join(tmpdir(), 'tracing-'));
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50', LOG_LEVEL: 'info', DATA_DIR: dir };
    projector = TsProcess.start('dist/apps/projector/src/main.js', { ...otel, PORT: '0', REGISTRY_TRN_DELAY_MS: '0' });
    await projector.waitForLine(/health endpoints listening/);
    api = TsProcess.start('dist/apps/api/src/main.js', { ...otel, PORT: '0', PROJECTOR: 'external' });
    const line = await api.waitForLine(/trainee records API listening/);
    url = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
    token = api.lines.map((l) => /^\s+(sandbox_[0-9a-f]{64})$/.exec(l)?.[1]).find(Boolean)!;
  }, 180_000);

  afterAll(async () => {
    // Each stops cleanly (exit 0) after flushing its spans; not checked when it never started.
    if (api) expect(await api.stop('SIGTERM')).toBe(0);
    if (projector) expect(await projector.stop('SIGTERM')).toBe(0);
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** POSTs a new trainee; resolves with the trace of its request (the server span named by its route template). */
  async function createTraced(
    seen: Set<string>,
    body = uniqueTrainee('v2025.0'),
  ): Promise<{ traceId: string; spans: () => ReceivedSpan[] }> {
    const res = await fetch(`${url}/api/v2025.0/trainees`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    const root = await receiver.waitFor(
      (s) => s.service === 'trainee-records-api' && s.name === 'POST /api/:api_version/trainees' && !seen.has(s.traceId),
    );
    seen.add(root.traceId);
    return { traceId: root.traceId, spans: () => receiver.spans.filter((s) => s.traceId === root.traceId) };
  }
  const seen = new Set<string>();

  it("one trace holds the request span, its validation, append and projection wait, and the projector's span of the write", async () => {
    const { traceId, spans } = await createTraced(seen);
    const inTrace = (service: string, name: string) =>
      receiver.waitFor((s) => s.traceId === traceId && s.service === service && s.name === name);
    const applied = await inTrace('trainee-records-projector', 'projection.apply TraineeRegistered');
    const append = spans().find((s) => s.spanId === applied.parentSpanId);
    expect(append).toMatchObject({ service: 'trainee-records-api', name: 'event_store.append' });
    const validate = await inTrace('trainee-records-api', 'request.validate');
    const wait = await inTrace('trainee-records-api', 'projection.wait');
    // The HTTP server span is the root: every span above descends from it.
    const root = spans().find((s) => s.parentSpanId === undefined)!;
    expect(root).toMatchObject({ service: 'trainee-records-api' });
    const ancestors = (s: ReceivedSpan): string[] => {
      const parent = spans().find((p) => p.spanId === s.parentSpanId);
      return parent ? [parent.spanId, ...ancestors(parent)] : [];
    };
    for (const s of [append!, validate, wait, applied]) expect(ancestors(s)).toContain(root.spanId);
  });

  it('no span name or attribute holds the personal values of the write or the token (docs/observability.md "Traces")', async () => {
    const body = uniqueTrainee('v2025.0');
    const d = body.data as Record<string, unknown>;
    Object.assign(d, {
      first_names: 'Zebedee',
      last_name: 'Quillfeather',
      email: 'zebedee.quillfeather@example.com',
      ni_number: 'QQ123456C',
    });
    const { traceId, spans } = await createTraced(seen, body);
    await receiver.waitFor((s) => s.traceId === traceId && s.name === 'projection.apply TraineeRegistered');
    const values = ['Zebedee', 'Quillfeather', 'zebedee.quillfeather', 'QQ123456C', String(d.date_of_birth), token];
    const text = JSON.stringify(receiver.spans.map((s) => [s.name, s.attributes]));
    expect(spans().length).toBeGreaterThan(3);
    for (const value of values) expect(text.includes(value)).toBe(false);
  });

  it("no span holds the search of the uploads page's list of trainees, nor the query it is sent in", async () => {
    const page = new PageClient(url);
    expect((await page.signIn(token)).status).toBe(303);
    const searched = 'Marchbanks Ottoline';
    expect((await page.get(`/uploads/trainees?cycle=2025&search=${encodeURIComponent(searched)}&status=in_training`)).status).toBe(200);
    const root = await receiver.waitFor((s) => s.service === 'trainee-records-api' && s.name === 'GET /uploads/trainees');
    await new Promise((r) => setTimeout(r, 200));
    const text = JSON.stringify(receiver.spans.filter((s) => s.traceId === root.traceId).map((s) => [s.name, s.attributes]));
    expect(text).toContain('/uploads/trainees');
    for (const value of ['Marchbanks', 'Ottoline', 'in_training']) expect([value, text.includes(value)]).toEqual([value, false]);
  });

  it("the registry process manager's request and the TRN it records join the trace of the write", async () => {
    const { traceId, spans } = await createTraced(seen);
    const inTrace = (name: string) => receiver.waitFor((s) => s.traceId === traceId && s.name === name);
    const handled = await inTrace('registry_process.handle TraineeSubmittedForTrn');
    const request = await inTrace('registry.request_trn');
    expect(request.parentSpanId).toBe(handled.spanId);
    const trn = await inTrace('projection.apply TrnIssued');
    // TrnIssued was appended by the process manager, in the span of its handling.
    const append = spans().find((s) => s.spanId === trn.parentSpanId);
    expect(append).toMatchObject({ service: 'trainee-records-projector', name: 'event_store.append' });
    expect(append!.parentSpanId).toBe(handled.spanId);
  });
});
