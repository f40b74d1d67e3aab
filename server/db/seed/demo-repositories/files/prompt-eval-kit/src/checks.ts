/** Deterministic checks of one model output. Each returns null when it passes, else a reason. */

export type Check =
  | { kind: "contains"; value: string }
  | { kind: "notContains"; value: string }
  | { kind: "matches"; value: string }
  | { kind: "maxWords"; value: number }
  | { kind: "json" };

export function runCheck(check: Check, output: string): string | null {
  switch (check.kind) {
    case "contains":
      return output.toLowerCase().includes(check.value.toLowerCase()) ? null : `missing "${check.value}"`;
    case "notContains":
      return output.toLowerCase().includes(check.value.toLowerCase()) ? `contains "${check.value}"` : null;
    case "matches":
      return new RegExp(check.value, "u").test(output) ? null : `does not match /${check.value}/`;
    case "maxWords": {
      const words = output.trim().split(/\s+/).filter(Boolean).length;
      return words <= check.value ? null : `${words} words, at most ${check.value} allowed`;
    }
    case "json":
      try {
        JSON.parse(output);
        return null;
      } catch {
        return "not valid JSON";
      }
  }
}
