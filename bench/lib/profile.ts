/**
 * Summarises a V8 CPU profile (`.cpuprofile`, as written by `node --cpu-prof`): self and total time
 * per function, and self time per package / source file, so a profile reads as a short table.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One row of a summary: a function, package or file with its self time and share of the busy time. */
export interface ProfileRow {
  name: string;
  where: string;
  selfMs: number;
  selfPct: number;
  totalMs: number;
  totalPct: number;
}

/** A profile summary: busy time (idle excluded) and the top rows by self time. */
export interface ProfileSummary {
  file: string;
  wallMs: number;
  busyMs: number;
  idleMs: number;
  gcMs: number;
  functions: ProfileRow[];
  modules: ProfileRow[];
}

/** Where a function lives, shortened: package name under node_modules, repo path under dist, or node's own. */
export function moduleOf(url: string): string {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node (internal)';
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + '/dist/'.length);
  return url.replace(/^file:\/\//, '');
}

/** Reads and summarises a `.cpuprofile`; `top` rows of each table. */
export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) byId.set(n.id, n);
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const fnKey = (n: ProfileNode): string =>
    `${n.callFrame.functionName || '(anonymous)'}\u0000${n.callFrame.url}:${n.callFrame.lineNumber + 1}`;
  const selfFn = new Map<string, number>();
  const totalFn = new Map<string, number>();
  const selfMod = new Map<string, number>();
  const totalMod = new Map<string, number>();
  let idle = 0;
  let gc = 0;
  let wall = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    wall += dt;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    const name = node.callFrame.functionName;
    if (name === '(idle)') {
      idle += dt;
      continue;
    }
    if (name === '(garbage collector)') gc += dt;
    const key = fnKey(node);
    selfFn.set(key, (selfFn.get(key) ?? 0) + dt);
    const mod = name.startsWith('(') ? name : moduleOf(node.callFrame.url);
    selfMod.set(mod, (selfMod.get(mod) ?? 0) + dt);
    // Total time: each function and module once per sample, whatever the recursion.
    const seenFn = new Set<string>();
    const seenMod = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      if (n.callFrame.functionName === '(root)') break;
      const k = fnKey(n);
      if (!seenFn.has(k)) {
        seenFn.add(k);
        totalFn.set(k, (totalFn.get(k) ?? 0) + dt);
      }
      const m = n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : moduleOf(n.callFrame.url);
      if (!seenMod.has(m)) {
        seenMod.add(m);
        totalMod.set(m, (totalMod.get(m) ?? 0) + dt);
      }
    }
  }
  const busy = wall - idle;
  const rows = (self: Map<string, number>, total: Map<string, number>, split: boolean): ProfileRow[] =>
    [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, ms]) => {
        const [name, where] = split ? key.split('\u0000') : [key, ''];
        const t = total.get(key) ?? ms;
        return {
          name,
          where: split ? shortWhere(where) : '',
          selfMs: ms,
          selfPct: (100 * ms) / busy,
          totalMs: t,
          totalPct: (100 * t) / busy,
        };
      });
  return {
    file,
    wallMs: wall,
    busyMs: busy,
    idleMs: idle,
    gcMs: gc,
    functions: rows(selfFn, totalFn, true),
    modules: rows(selfMod, totalMod, false),
  };
}

function shortWhere(where: string): string {
  const colon = where.lastIndexOf(':');
  const url = where.slice(0, colon);
  return `${moduleOf(url)}${url ? where.slice(colon) : ''}`;
}

/** The summary as two padded text tables. */
export function formatProfile(summary: ProfileSummary): string {
  const pct = (x: number): string => `${x.toFixed(1)}%`.padStart(6);
  const lines: string[] = [];
  lines.push(`CPU profile ${summary.file}`);
  lines.push(
    `wall ${(summary.wallMs / 1000).toFixed(1)} s, busy ${(summary.busyMs / 1000).toFixed(1)} s, idle ${(summary.idleMs / 1000).toFixed(1)} s, GC ${(summary.gcMs / 1000).toFixed(1)} s (${((100 * summary.gcMs) / summary.busyMs).toFixed(1)}% of busy)`,
  );
  lines.push('', 'self  total  function (where)');
  for (const r of summary.functions) lines.push(`${pct(r.selfPct)} ${pct(r.totalPct)}  ${r.name}  (${r.where})`);
  lines.push('', 'self  total  package or file');
  for (const r of summary.modules) lines.push(`${pct(r.selfPct)} ${pct(r.totalPct)}  ${r.name}`);
  return lines.join('\n');
}
