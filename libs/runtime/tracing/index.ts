export { contextOf, currentTraceparent, inSpan, inSyncSpan, startTracing, stopTracing, tracer, tracingEnabled } from './tracing';
