import type { LoggerService } from '@nestjs/common';
import { CLS_ID, ClsServiceManager } from 'nestjs-cls';
import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { LogLevelName } from '@ppfile/config';

export type RootLogger = Pino;

/**
 * The process's one logger: JSON lines on standard output (API.md §13 LOG_LEVEL), readable lines
 * only when standard output is a terminal. Synchronous writes: a line written before a crash is
 * not lost in a buffer (with `batchInfoLines`, a warning or an error is not; InfoLineBatcher).
 * Fields that could carry a secret are censored wherever they appear, as a second line of
 * defence: the code logs ids, counts, codes and durations, never values of a request.
 */
export function createRootLogger(options: {
  app: string;
  level: LogLevelName;
  destination?: DestinationStream;
  /** Info and debug lines on standard output written together (InfoLineBatcher): the gateway's access lines. */
  batchInfoLines?: boolean;
}): RootLogger {
  return pino(
    {
      level: options.level,
      base: { app: options.app, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: requestIdOfContext,
      redact: {
        paths: [
          'authorization',
          'password',
          'secret',
          'key',
          'nir',
          '*.authorization',
          '*.password',
          '*.secret',
          '*.key',
          '*.nir',
        ],
        censor: '[redacted]',
      },
    },
    options.destination ?? defaultDestination(options.batchInfoLines ?? false),
  );
}

/**
 * The request id of the work under way (nestjs-cls: the gateway's request, the worker's job): on
 * every line written while it runs, whoever writes it. Nothing outside a request or a job.
 */
export function requestIdOfContext(): { request_id?: string } {
  const cls = ClsServiceManager.getClsService();
  const id = cls.isActive() ? (cls.getId() as string | undefined) : undefined;
  return id ? { request_id: id } : {};
}

/**
 * Runs `fn` (the rest of an HTTP request's handling: express's `next`) in a context of its own
 * whose id is `requestId`: every line written meanwhile, and every job added, carries it. The
 * gateway's request-id middleware opens it (cheaper than nestjs-cls's ClsModule, issue 35).
 */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  const cls = ClsServiceManager.getClsService();
  return cls.run(() => {
    cls.set(CLS_ID, requestId);
    return fn();
  });
}

function defaultDestination(batchInfoLines: boolean): DestinationStream {
  if (process.stdout.isTTY) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a person at a terminal
    const pretty = require('pino-pretty') as (o: object) => DestinationStream;
    return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  }
  const out = pino.destination({ dest: 1, sync: true });
  return batchInfoLines ? new InfoLineBatcher(out) : out;
}

/** The lines InfoLineBatcher may keep a while: what createRootLogger's level formatter starts them with. */
const BATCHED_LEVELS = ['{"level":"info"', '{"level":"debug"', '{"level":"trace"'];

/**
 * One write for many lines (issue 35: the gateway writes an access line per request, and on this
 * machine the system call per line cost 2–4 % of its CPU under bench:http). Lines of level info,
 * debug and trace are kept at most `maxDelayMs` or `maxBytes`, then written together, still
 * synchronously; a warn, error or fatal line first writes what is kept, then itself, at once, so
 * lines keep their order and a crash loses no warning or error — at most the last `maxDelayMs` of
 * access lines, and only when the process is killed (what is kept is written at exit, and at the
 * end of Nest's shutdown: InfraShutdown).
 */
export class InfoLineBatcher implements DestinationStream {
  private pending = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly maxDelayMs = 100,
    private readonly maxBytes = 16 * 1024,
  ) {
    // Nest ends its shutdown by killing its own process with the signal: no 'exit' then, hence also
    // InfraShutdown's flush.
    process.once('exit', () => this.writeKept());
  }

  write(line: string): void {
    if (!BATCHED_LEVELS.some((start) => line.startsWith(start))) {
      this.writeKept();
      this.out.write(line);
      return;
    }
    this.pending += line;
    if (this.pending.length >= this.maxBytes) this.writeKept();
    else this.timer ??= setTimeout(() => this.writeKept(), this.maxDelayMs).unref();
  }

  /** Writes what is kept now (pino's `logger.flush(cb)` calls it: InfraShutdown does, last). */
  flush(done?: () => void): void {
    this.writeKept();
    done?.();
  }

  private writeKept(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.out.write(text);
  }
}

type Level = 'info' | 'warn' | 'debug' | 'trace' | 'error' | 'fatal';
const NEST_BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's logger over the root logger: every `new Logger(context)` of the apps writes one JSON line
 * with its context. `logger.warn({ field }, 'message')` puts the fields on the line. An error or a
 * stack keeps only its frames and class, since an error's first line could quote a value.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: RootLogger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  private write(wanted: Level, message: unknown, rest: unknown[]): void {
    const params = [...rest];
    const isStack = (p: unknown): p is string => typeof p === 'string' && p.includes('\n    at ');
    // A contextual Nest Logger passes its context last.
    const last = params[params.length - 1];
    const context = typeof last === 'string' && !isStack(last) ? (params.pop() as string) : undefined;
    // Nest's boot lines (each module, each route) are for debugging, not for every start.
    const level =
      wanted === 'info' && context !== undefined && NEST_BOOT_CONTEXTS.has(context) ? 'debug' : wanted;
    const fields: Record<string, unknown> = { context };
    let text: string | undefined;
    for (const p of params) {
      if (isStack(p)) fields.frames = framesOf(p);
      else if (typeof p === 'string') text = p;
      else if (p && typeof p === 'object') Object.assign(fields, p);
    }
    if (message instanceof Error) {
      fields.err_name = message.name;
      fields.frames = framesOf(message.stack ?? '');
      this.root[level](fields, text ?? 'error');
    } else if (message !== null && typeof message === 'object') {
      this.root[level]({ ...fields, ...message }, text ?? context ?? '');
    } else {
      this.root[level](fields, String(message));
    }
  }
}

/** The `at …` lines of a stack, joined: where an error happened, without its message. */
export function framesOf(stack: string): string {
  return stack
    .split('\n')
    .filter((l) => l.trimStart().startsWith('at '))
    .slice(0, 8)
    .map((l) => l.trim())
    .join(' | ');
}

/** Errors whose message names a setting or a file, never a value of a request: safe to log whole. */
const SPEAKING_ERRORS = new Set(['ConfigError', 'ReferenceDataError']);

/**
 * A process that cannot start writes one JSON line naming why (every configuration problem at once,
 * the port taken, the reference data missing), never a value, then exits 1.
 */
export function exitOnBootFailure(
  app: 'gateway' | 'worker',
  portVariable: string,
  error: Error & { code?: string; port?: number },
): never {
  const logger = createRootLogger({ app, level: 'info' });
  if (SPEAKING_ERRORS.has(error.constructor.name) || SPEAKING_ERRORS.has(error.name))
    logger.fatal({ type: 'config' }, `ppfile ${app}: ${error.message}`);
  else if (error.code === 'EADDRINUSE')
    logger.fatal(
      { type: 'port' },
      `ppfile ${app}: port ${error.port ?? ''} is already in use (${portVariable})`,
    );
  else
    logger.fatal(
      { err_name: error.name, frames: framesOf(error.stack ?? '') },
      `ppfile ${app}: failed to start: ${error.name}`,
    );
  process.exit(1);
}
