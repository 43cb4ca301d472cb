/** The libraries' message-first loggers over pino's context-first one (logging.ts). */
import { messageFirst } from './logging';

describe('messageFirst', () => {
  it('passes each level on with the context first, and an empty context when none is given', () => {
    const calls: [string, object, string][] = [];
    const record = (level: string) => (context: object, message: string) => calls.push([level, context, message]);
    const logger = messageFirst({ info: record('info'), warn: record('warn'), error: record('error') });

    logger.info('started', { port: 3000 });
    logger.warn('slow');
    logger.error('failed', { attempts: 2 });

    expect(calls).toEqual([
      ['info', { port: 3000 }, 'started'],
      ['warn', {}, 'slow'],
      ['error', { attempts: 2 }, 'failed'],
    ]);
  });
});
