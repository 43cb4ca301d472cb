import { execFileSync, spawnSync } from 'node:child_process';
import { ROOT } from '../support/processes';

/**
 * docker-compose.yml validates with `docker-compose config` (Debian's docker-compose package needs
 * no Docker engine). Machines without the command skip this, and say so.
 */
const available = spawnSync('docker-compose', ['--version']).status === 0;
if (!available) console.warn('docker-compose.yml validation SKIPPED: the docker-compose command is not installed');

(available ? describe : describe.skip)('docker-compose.yml', () => {
  it('validates and defines the four services with health checks', () => {
    const out = execFileSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], { cwd: ROOT, encoding: 'utf8' });
    for (const service of ['eventstore:', 'mongodb:', 'api:', 'projector:']) expect(out).toContain(service);
    expect(out.match(/healthcheck:/g)?.length).toBe(4);
    expect(out).toContain('PROJECTOR: external');
  });
});
