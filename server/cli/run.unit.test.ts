import { describe, expect, it } from "vitest";
import { ForbiddenError } from "../errors.ts";
import type { Runtime } from "../runtime.ts";
import { type CliCommand, CliNotFoundError, CliUsageError } from "./command.ts";
import { createProgress, parseArgs, runCli } from "./run.ts";

const echo: CliCommand = {
  name: "echo",
  summary: "Echo the arguments",
  usage: "Usage: npm run hub -- echo [words] [--loud] [--times N]",
  valueOptions: ["times"],
  options: ["loud"],
  async run(ctx, args) {
    ctx.out(args.positional.join(" "));
    ctx.progress("Echoing", 1, 1);
    return args;
  },
};

function fakeRuntime() {
  const calls: string[] = [];
  const runtime = {
    stopBackground: async () => {
      calls.push("stopBackground");
    },
    close: async () => {
      calls.push("close");
    },
  } as unknown as Runtime;
  return { runtime, calls };
}

async function run(argv: string[], commands: CliCommand[], createRuntime?: () => Promise<Runtime>) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, commands, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { DATA_DIR: "/nonexistent" },
    createRuntime: createRuntime ?? (() => Promise.reject(new Error("no runtime wanted"))),
  });
  return { code, stdout, stderr };
}

describe("parseArgs", () => {
  it("splits positionals, switches and value options in both spellings", () => {
    expect(parseArgs(echo, ["a", "--loud", "--times", "3", "b"])).toEqual({
      positional: ["a", "b"],
      flags: { loud: true, times: "3" },
      help: false,
    });
    expect(parseArgs(echo, ["--times=4", "--", "--loud"])).toEqual({
      positional: ["--loud"],
      flags: { times: "4" },
      help: false,
    });
    expect(parseArgs(echo, ["-h"]).help).toBe(true);
  });

  it("refuses unknown options, a missing value, a value on a switch and a repeated value", () => {
    expect(() => parseArgs(echo, ["--quiet"])).toThrow(CliUsageError);
    expect(() => parseArgs(echo, ["-x"])).toThrow(/Unknown option -x/);
    expect(() => parseArgs(echo, ["--times"])).toThrow(/--times needs a value/);
    expect(() => parseArgs(echo, ["--times", "--loud"])).toThrow(/needs a value/);
    expect(() => parseArgs(echo, ["--loud=yes"])).toThrow(/takes no value/);
    expect(() => parseArgs(echo, ["--times=1", "--times=2"])).toThrow(/given twice/);
  });
});

describe("runCli", () => {
  it("prints the hub's help (0) and exits 2 without a command or with an unknown one", async () => {
    const help = await run(["--help"], [echo]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("echo  Echo the arguments");
    expect((await run([], [echo])).code).toBe(2);
    const unknown = await run(["nope"], [echo]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "nope"');
  });

  it("answers a command's --help without running it", async () => {
    const ran = await run(["echo", "--help", "--bogus-after-help"], [echo]);
    expect(ran.code).toBe(2);
    const help = await run(["echo", "--help"], [echo]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toContain("Usage: npm run hub -- echo");
  });

  it("prints human lines without --json and only the result with it", async () => {
    const human = await run(["echo", "hello", "world"], [echo]);
    expect(human).toEqual({ code: 0, stdout: "hello world\n", stderr: "Echoing 1/1\n" });
    const json = await run(["--json", "echo", "hi", "--times", "2"], [echo]);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout)).toEqual({ positional: ["hi"], flags: { times: "2" } });
  });

  it("maps errors to exit codes: usage 2, not found 3, service refusals and failures 1", async () => {
    const failing = (error: Error): CliCommand => ({
      ...echo,
      name: "fail",
      run: async () => {
        throw error;
      },
    });
    const usage = await run(["fail"], [failing(new CliUsageError("say more"))]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("say more\n\nUsage: npm run hub -- echo");
    const missing = await run(["fail", "--json"], [failing(new CliNotFoundError("no such user"))]);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { code: "NOT_FOUND", message: "no such user" } });
    const refused = await run(["fail"], [failing(new ForbiddenError("not yours"))]);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe("fail: not yours\n");
    const broke = await run(["fail"], [failing(new TypeError("x is undefined"))]);
    expect(broke.code).toBe(1);
    expect(broke.stderr).toContain("fail: x is undefined\nTypeError: x is undefined");
  });

  it("builds the runtime only for a command that asks, stops its background work first and closes it", async () => {
    const { runtime, calls } = fakeRuntime();
    let built = 0;
    const make = async () => {
      built++;
      return runtime;
    };
    await run(["echo", "x"], [echo], make);
    expect(built).toBe(0);
    const uses: CliCommand = {
      ...echo,
      name: "uses",
      run: async (ctx) => {
        const first = await ctx.runtime();
        expect(await ctx.runtime()).toBe(first);
        calls.push("run");
        return null;
      },
    };
    expect((await run(["uses"], [uses], make)).code).toBe(0);
    expect(built).toBe(1);
    expect(calls).toEqual(["stopBackground", "run", "close"]);
    calls.length = 0;
    const throws: CliCommand = {
      ...uses,
      run: async (ctx) => {
        await ctx.runtime();
        throw new CliNotFoundError("gone");
      },
    };
    expect((await run(["uses"], [throws], make)).code).toBe(3);
    expect(calls).toEqual(["stopBackground", "close"]);
  });
});

describe("createProgress", () => {
  it("writes a line when a step starts, per tenth and at the end off a terminal", () => {
    let text = "";
    const progress = createProgress({ write: (t: string) => (text += t) });
    for (let i = 0; i <= 100; i++) progress.report("Exporting", i, 100);
    progress.report("Syncing", 0, null);
    const lines = text.trimEnd().split("\n");
    expect(lines).toEqual([
      "Exporting 0/100",
      ...Array.from({ length: 9 }, (_, i) => `Exporting ${(i + 1) * 10}/100`),
      "Exporting 100/100",
      "Syncing…",
    ]);
  });

  it("redraws a bar in place on a terminal and ends it with a line break", () => {
    let text = "";
    let clock = 0;
    const progress = createProgress(
      { write: (t: string) => (text += t), isTTY: true, columns: 60 },
      () => clock,
    );
    progress.report("Indexing", 0, 4);
    clock += 10;
    progress.report("Indexing", 1, 4);
    clock += 100;
    progress.report("Indexing", 2, 4);
    progress.report("Indexing", 4, 4);
    const frames = text.split("\r\x1b[K").filter(Boolean);
    expect(frames).toHaveLength(3);
    expect(frames[0]).toMatch(/^Indexing \[\.+\] 0\/4$/);
    expect(frames[1]).toMatch(/^Indexing \[#+\.+\] 2\/4$/);
    expect(frames[2]).toMatch(/^Indexing \[#+\] 4\/4\n$/);
  });
});
