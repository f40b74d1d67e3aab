/**
 * Where a JSON text first goes wrong, and why: a small scanner that follows RFC 8259, because the
 * browsers' JSON.parse messages differ and some name no position at all. null when the text is valid.
 */
export interface JsonProblem {
  offset: number;
  reason: string;
}

export function findJsonProblem(text: string): JsonProblem | null {
  let i = 0;
  const fail = (reason: string, at = i): never => {
    throw { offset: at, reason } satisfies JsonProblem;
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const describe = () => (i >= text.length ? "the end of the text" : JSON.stringify(text[i]));
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`expected a value but found ${describe()}`);
  };
  const string = () => {
    const start = i;
    i++; // the opening quote
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === "\\") {
        const next = text[i + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("a \\u escape needs four hex digits");
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail("unknown escape in a string");
      } else if (ch < " ") fail("a line break or control character inside a string (write \\n)");
      else i++;
    }
    fail("a string is not closed", start);
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail(`expected a value but found ${describe()}`);
    i += match![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 200) fail("nested too deeply");
    space();
    const ch = text[i];
    if (ch === "{") {
      i++;
      space();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a property name in double quotes but found ${describe()}`);
        string();
        space();
        if (text[i] !== ":") fail(`expected ":" after the property name but found ${describe()}`);
        i++;
        value(depth + 1);
        space();
        if (text[i] === ",") {
          const comma = i++;
          space();
          if (text[i] === "}") fail("a comma before } (remove the trailing comma)", comma);
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail(`expected "," or "}" but found ${describe()}`);
      }
    }
    if (ch === "[") {
      i++;
      space();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        space();
        if (text[i] === ",") {
          const comma = i++;
          space();
          if (text[i] === "]") fail("a comma before ] (remove the trailing comma)", comma);
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail(`expected "," or "]" but found ${describe()}`);
      }
    }
    if (ch === '"') string();
    else if (ch === "t") literal("true");
    else if (ch === "f") literal("false");
    else if (ch === "n") literal("null");
    else number();
  };
  try {
    value(0);
    space();
    if (i < text.length) fail(`unexpected text after the JSON value: ${JSON.stringify(text[i])}`);
    return null;
  } catch (problem) {
    return problem as JsonProblem;
  }
}
