import { describe, expect, it } from "vitest";
import { deviceFingerprint } from "./session-guard.ts";

const of = (ua: string, lang: string | null) =>
  deviceFingerprint(new Headers({ "user-agent": ua, ...(lang === null ? {} : { "accept-language": lang }) }));

describe("deviceFingerprint", () => {
  const chrome = "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0";

  it("is the same for one browser whose language list is sometimes expanded", () => {
    expect(of(chrome, "en-US,en;q=0.9")).toBe(of(chrome, "en-US"));
    expect(of(chrome, " EN-us ;q=1")).toBe(of(chrome, "en-US"));
  });

  it("differs for another browser or another first language", () => {
    expect(of("curl/8.0", "en-US")).not.toBe(of(chrome, "en-US"));
    expect(of(chrome, "fr-FR,en-US;q=0.8")).not.toBe(of(chrome, "en-US"));
    expect(of(chrome, null)).not.toBe(of(chrome, "en-US"));
  });
});
