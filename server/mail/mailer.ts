import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { v7 as uuidv7 } from "uuid";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (e.g. List-Unsubscribe); both mailers pass them through. */
  headers?: Record<string, string>;
}

/** Sends e-mail. The embedded default writes RFC 5322 `.eml` files; SMTP is the scale-out. */
export interface Mailer {
  readonly kind: "outbox" | "smtp";
  send(message: MailMessage): Promise<void>;
}

export interface SmsMessage {
  to: string;
  text: string;
}

/** Sends SMS. The embedded default writes `.txt` files to the outbox; a gateway implements the same interface. */
export interface SmsSender {
  readonly kind: string;
  send(message: SmsMessage): Promise<void>;
}

export const DEFAULT_FROM = "Lumen Hub <no-reply@lumen.local>";

/** File names sort by time: <uuidv7>-<kind>.<ext>. */
function outboxName(ext: "eml" | "txt"): string {
  return `${uuidv7()}.${ext}`;
}

/** A nodemailer transport made on the first message (nodemailer is imported then, not at start). */
function lazyTransport(options: Parameters<typeof import("nodemailer").createTransport>[0]) {
  let transport: Promise<Transporter> | null = null;
  return () => {
    transport ??= import("nodemailer").then((module) => module.default.createTransport(options));
    transport.catch(() => {
      transport = null;
    });
    return transport;
  };
}

/** Writes each message as an RFC 5322 file (built by nodemailer) into `dir`. */
export function createOutboxMailer(dir: string, from = DEFAULT_FROM): Mailer {
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "outbox",
    async send(message) {
      const info = await (await transport()).sendMail({ from, ...message });
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, outboxName("eml")), info.message as Buffer, { mode: 0o600 });
    },
  };
}

/** Sends through SMTP (`smtp://user:pass@host:port`, `smtps://…`). */
export function createSmtpMailer(url: string, from = DEFAULT_FROM): Mailer {
  const transport = lazyTransport(url);
  return {
    kind: "smtp",
    async send(message) {
      await (await transport()).sendMail({ from, ...message });
    },
  };
}

export function createMailer(options: { smtpUrl?: string; outboxDir: string; from?: string }): Mailer {
  return options.smtpUrl
    ? createSmtpMailer(options.smtpUrl, options.from)
    : createOutboxMailer(options.outboxDir, options.from);
}

/** Writes each SMS as a small text file (To: line, blank line, body) into `dir`. */
export function createOutboxSms(dir: string): SmsSender {
  return {
    kind: "outbox",
    async send(message) {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, outboxName("txt")), `To: ${message.to}\n\n${message.text}\n`, {
        mode: 0o600,
      });
    },
  };
}

/** The newest outbox files first (used by tests and by a developer reading codes). */
export async function readOutbox(dir: string, ext: "eml" | "txt" = "eml"): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir))
      .filter((n) => n.endsWith(`.${ext}`))
      .sort()
      .reverse();
  } catch {
    return [];
  }
  return Promise.all(names.map((n) => readFile(path.join(dir, n), "utf8")));
}
