/**
 * XML text for the sitemap and the RSS feed. Every value that reaches an XML document passes
 * through `escapeXml`: markup characters become entities and characters XML 1.0 forbids are
 * dropped, so any title or excerpt (including `<`, `&` or `]]>`) yields a well-formed document.
 */

/** Characters XML 1.0 does not allow anywhere (C0 controls except tab/LF/CR, U+FFFE/U+FFFF, lone surrogates). */
const INVALID_XML_CHARS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to remove
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text or attribute value → XML-safe text. */
export function escapeXml(value: string): string {
  return value.replace(INVALID_XML_CHARS, "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** `<name>escaped text</name>`, or nothing for an empty value. */
export function xmlElement(name: string, value: string | null | undefined): string {
  return value ? `<${name}>${escapeXml(value)}</${name}>` : "";
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
