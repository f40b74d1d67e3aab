/** Runs test cases against a model function and prints a report. */
import { readFile } from "node:fs/promises";
import { type Check, runCheck } from "./checks.ts";

export interface Case {
  name: string;
  input: string;
  checks: Check[];
}

export interface CaseResult {
  name: string;
  passed: boolean;
  failures: string[];
}

export type Model = (input: string) => Promise<string>;

export async function runCases(cases: Case[], model: Model) {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const output = await model(c.input);
    const failures = c.checks.map((check) => runCheck(check, output)).filter((f): f is string => f !== null);
    results.push({ name: c.name, passed: failures.length === 0, failures });
  }
  const passed = results.filter((r) => r.passed).length;
  return { results, summary: `${passed}/${results.length} passed` };
}

/** A canned model so the example runs offline. */
const cannedModel: Model = async (input) =>
  input.includes("refund")
    ? "You can return any item within 30 days for a full refund. Keep your order number handy."
    : "I am not sure.";

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? "examples/summarize.cases.json";
  const cases = JSON.parse(await readFile(file, "utf8")) as Case[];
  const report = await runCases(cases, cannedModel);
  for (const r of report.results) {
    console.log(
      `${r.passed ? "PASS" : "FAIL"} ${r.name}${r.failures.length ? ` (${r.failures.join("; ")})` : ""}`,
    );
  }
  console.log(report.summary);
}
