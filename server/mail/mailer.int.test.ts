import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer, createOutboxSms, readOutbox } from "./mailer.ts";

describe("outbox mailer", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lumen-outbox-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes an RFC 5322 message with headers and both bodies", async () => {
    const mailer = createMailer({ outboxDir: dir });
    expect(mailer.kind).toBe("outbox");
    await mailer.send({
      to: "new@example.com",
      subject: "Your code: 123456",
      text: "Code 123456",
      html: "<p>Code</p>",
    });
    const [eml] = await readOutbox(dir);
    expect(eml).toMatch(/^From: Lumen Hub <no-reply@lumen\.local>$/m);
    expect(eml).toMatch(/^To: new@example\.com$/m);
    expect(eml).toMatch(/^Subject: Your code: 123456$/m);
    expect(eml).toMatch(/^Message-ID: </m);
    expect(eml).toMatch(/^Date: /m);
    expect(eml).toContain("Code 123456");
    expect(eml).toContain("multipart/alternative");
  });

  it("writes SMS to text files, newest first", async () => {
    const sms = createOutboxSms(dir);
    await sms.send({ to: "+15550100", text: "first" });
    await sms.send({ to: "+15550100", text: "second" });
    const [newest, older] = await readOutbox(dir, "txt");
    expect(newest).toBe("To: +15550100\n\nsecond\n");
    expect(older).toContain("first");
  });
});

describe("SMTP mailer against a local SMTP server", () => {
  let server: SMTPServer;
  let port = 0;
  const received: Array<{ from: string; to: string[]; data: string }> = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (chunk: Buffer) => {
          data += chunk.toString("utf8");
        });
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("delivers the message over SMTP", async () => {
    const mailer = createMailer({ outboxDir: "/nonexistent", smtpUrl: `smtp://127.0.0.1:${port}` });
    expect(mailer.kind).toBe("smtp");
    await mailer.send({
      to: "reader@example.com",
      subject: "Confirm your e-mail",
      text: "Your code is 654321",
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe("no-reply@lumen.local");
    expect(received[0]!.to).toEqual(["reader@example.com"]);
    expect(received[0]!.data).toMatch(/^Subject: Confirm your e-mail/m);
    expect(received[0]!.data).toContain("Your code is 654321");
  });

  it("reports a refused connection as an error, not a crash", async () => {
    const mailer = createMailer({ outboxDir: "/nonexistent", smtpUrl: "smtp://127.0.0.1:1" });
    await expect(mailer.send({ to: "a@example.com", subject: "x", text: "y" })).rejects.toThrow();
  });
});
