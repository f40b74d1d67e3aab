/**
 * A small, strict XML reader for tests of the sitemap and the feed: it rejects what an XML parser
 * would reject in these documents (unbalanced or crossed tags, a raw `<` or `&` in text or in an
 * attribute, unknown entities, unquoted attributes, content after the root) and returns the tree.
 */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  /** Decoded text directly inside this element. */
  text: string;
}

const ENTITY: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, where: string): string {
  if (raw.includes("<")) throw new Error(`raw "<" in ${where}`);
  return raw.replace(/&([^;]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(";")) throw new Error(`bare "&" in ${where}`);
    if (name in ENTITY) return ENTITY[name]!;
    const num = /^#(x[0-9a-f]+|[0-9]+)$/i.exec(name);
    if (num) return String.fromCodePoint(Number(name[1] === "x" ? `0${name.slice(1)}` : name.slice(1)));
    throw new Error(`unknown entity &${name}; in ${where}`);
  });
}

const NAME = "[A-Za-z_][\\w.:-]*";
const TAG = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`);
const ATTR = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "g");

/** Parses a document; throws on anything not well-formed. */
export function parseXml(xml: string): XmlNode {
  let rest = xml.replace(/^\uFEFF?<\?xml[^?]*\?>\s*/, "");
  const stack: XmlNode[] = [];
  let root: XmlNode | null = null;
  while (rest.length > 0) {
    if (rest.startsWith("<!--")) {
      const end = rest.indexOf("-->");
      if (end < 0) throw new Error("unterminated comment");
      rest = rest.slice(end + 3);
      continue;
    }
    if (rest.startsWith("<")) {
      const m = TAG.exec(rest);
      if (!m) throw new Error(`malformed tag near ${JSON.stringify(rest.slice(0, 40))}`);
      const [whole, closing, name, attrText, selfClosing] = m as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      rest = rest.slice(whole.length);
      if (closing) {
        const open = stack.pop();
        if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name ?? "nothing"}>`);
        continue;
      }
      if (root && stack.length === 0) throw new Error(`second root element <${name}>`);
      const attributes: Record<string, string> = {};
      for (const a of attrText.matchAll(ATTR)) attributes[a[1]!] = decode(a[2] ?? a[3] ?? "", `@${a[1]}`);
      const node: XmlNode = { name, attributes, children: [], text: "" };
      if (stack.length > 0) stack.at(-1)!.children.push(node);
      else root = node;
      if (!selfClosing) stack.push(node);
      continue;
    }
    const next = rest.indexOf("<");
    const raw = next < 0 ? rest : rest.slice(0, next);
    rest = next < 0 ? "" : rest.slice(next);
    const text = decode(raw, "text");
    if (stack.length === 0) {
      if (text.trim()) throw new Error("text outside the root element");
      continue;
    }
    stack.at(-1)!.text += text;
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> is not closed`);
  if (!root) throw new Error("no root element");
  return root;
}

/** Direct children named `name`. */
export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((c) => c.name === name);
}

/** Text of the first direct child named `name` ("" when absent). */
export function childText(node: XmlNode, name: string): string {
  return node.children.find((c) => c.name === name)?.text ?? "";
}
