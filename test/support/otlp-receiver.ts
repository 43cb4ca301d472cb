import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: { name: string; traceId: string; spanId: string; parentSpanId?: string; attributes?: OtlpAttribute[] }[] }[];
  }[];
}

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? v.intValue ?? v.boolValue;

/**
 * An OTLP/HTTP trace receiver on loopback (JSON encoding, as `@opentelemetry/exporter-trace-otlp-http`
 * sends by default): collects every span posted to `/v1/traces` and answers 200.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | null = null;

  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces' && req.method === 'POST') this.collect(JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Resolves once a span satisfies `test` (polling every 50 ms); rejects after `withinMs`. */
  async waitFor(test: (span: ReceivedSpan) => boolean, withinMs = 15_000): Promise<ReceivedSpan> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const found = this.spans.find(test);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no such span in ${withinMs} ms; received: ${this.spans.map((s) => `${s.service} ${s.name}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private collect(body: OtlpExport): void {
    for (const rs of body.resourceSpans ?? []) {
      const service = String(valueOf(rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value ?? {}) ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          const attributes = Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)]));
          this.spans.push({
            service,
            name: s.name,
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            attributes,
          });
        }
      }
    }
  }
}
