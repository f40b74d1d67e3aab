import { format } from "node:util";

/**
 * Unit and integration tests fail on an unexpected console.error or console.warn (the browser
 * tests do the same in `tests/e2e/fixtures.ts`). The product logs through pino, never the console,
 * so a console line during a test is a bug or an error path the test provokes on purpose; such a
 * test declares it with `expectConsoleError(/pattern/)`.
 */
type Method = "error" | "warn";

interface GuardState {
  /** Lines nobody declared, since the last check. */
  unexpected: string[];
  /** Declarations of the running test, and whether each matched a line. */
  expected: { pattern: RegExp; method: Method; seen: boolean }[];
}

const KEY = Symbol.for("lumen.console-guard");
const holder = globalThis as typeof globalThis & { [KEY]?: GuardState };

function state(): GuardState {
  holder[KEY] ??= { unexpected: [], expected: [] };
  return holder[KEY];
}

/**
 * Declares that the running test makes the code under test write one or more console lines matching
 * `pattern` (console.error unless `method` says otherwise). The declaration ends with the test, and
 * the test fails if no such line was written.
 */
export function expectConsoleError(pattern: RegExp, method: Method = "error"): void {
  state().expected.push({ pattern, method, seen: false });
}

/** Replaces console.error and console.warn with recorders that still print what they record. */
export function installConsoleGuard(): void {
  const s = state();
  for (const method of ["error", "warn"] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const text = format(...args);
      const declared = s.expected.find((e) => e.method === method && e.pattern.test(text));
      if (declared) {
        declared.seen = true;
        return;
      }
      s.unexpected.push(`console.${method}: ${text}`);
      original(...args);
    };
  }
}

/** The problems found since the last call (undeclared lines, declarations never met); resets. */
export function takeConsoleProblems(endOfTest: boolean): string[] {
  const s = state();
  const problems = s.unexpected.splice(0);
  if (endOfTest) {
    for (const e of s.expected.splice(0)) {
      if (!e.seen) problems.push(`expected a console.${e.method} matching ${e.pattern}, none was written`);
    }
  }
  return problems;
}
