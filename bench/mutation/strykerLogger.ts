/**
 * A logger for Stryker's instrumenter when the bench drives it directly: warnings and errors go
 * to stderr, the rest is dropped (the bench prints its own progress).
 */
import { type Logger } from '@stryker-mutator/api/logging';

export function quietLogger(): Logger {
  const drop = (): void => {};
  const say =
    (level: string) =>
    (message: string, ...args: unknown[]) => {
      process.stderr.write(`stryker ${level}: ${message} ${args.map(String).join(' ')}\n`);
    };
  return {
    isTraceEnabled: () => false,
    isDebugEnabled: () => false,
    isInfoEnabled: () => false,
    isWarnEnabled: () => true,
    isErrorEnabled: () => true,
    isFatalEnabled: () => true,
    trace: drop,
    debug: drop,
    info: drop,
    warn: say('warn'),
    error: say('error'),
    fatal: say('fatal'),
  };
}
