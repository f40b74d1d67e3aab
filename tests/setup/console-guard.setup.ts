import { afterAll, afterEach } from "vitest";
import { installConsoleGuard, takeConsoleProblems } from "../helpers/console-guard";

installConsoleGuard();

function check(endOfTest: boolean): void {
  const problems = takeConsoleProblems(endOfTest);
  if (problems.length > 0) {
    throw new Error(
      `Unexpected console output (declare it with expectConsoleError):\n${problems.join("\n")}`,
    );
  }
}

// Lines written by beforeAll hooks are reported with the first test; later ones by afterAll.
afterEach(() => check(true));
afterAll(() => check(false));
