/**
 * The importers' readers without a database: front matter, image references, Ghost's visibility
 * and tier mapping, and the folder guard on image paths.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FrontMatterError, isoDate, parseFrontMatter, slugify, stringList } from "./front-matter.ts";
import { ghostImage, ghostPlan, parseTierMap } from "./ghost.ts";
import { localImage } from "./markdown-folder.ts";
import { findImages, rewriteImages } from "./markdown-images.ts";

describe("front matter", () => {
  it("splits YAML front matter from the body", () => {
    const parsed = parseFrontMatter("---\ntitle: Hello\ntags: [a, b]\ndraft: true\n---\n\n# Body\n");
    expect(parsed.data).toEqual({ title: "Hello", tags: ["a", "b"], draft: true });
    expect(parsed.body).toBe("\n# Body\n");
  });

  it("reads a file without front matter as all body, and CRLF files", () => {
    expect(parseFrontMatter("# Just text\n")).toEqual({ data: {}, body: "# Just text\n" });
    expect(parseFrontMatter("---\r\ntitle: Win\r\n---\r\nBody\r\n")).toEqual({
      data: { title: "Win" },
      body: "Body\n",
    });
  });

  it("refuses unclosed, invalid, non-mapping and TOML front matter with a reason", () => {
    expect(() => parseFrontMatter("---\ntitle: x\n")).toThrow(/not closed/);
    expect(() => parseFrontMatter("---\ntitle: [unclosed\n---\n")).toThrow(FrontMatterError);
    expect(() => parseFrontMatter("---\ntitle: [unclosed\n---\n")).toThrow(/not valid YAML/);
    expect(() => parseFrontMatter("---\n- a\n- b\n---\n")).toThrow(/mapping/);
    expect(() => parseFrontMatter('+++\ntitle = "x"\n+++\n')).toThrow(/TOML/);
  });

  it("slugs, lists and dates", () => {
    expect(slugify("Héllo, World!  Again")).toBe("hello-world-again");
    expect(slugify("---")).toBe("");
    expect(stringList("a, b ,,c")).toEqual(["a", "b", "c"]);
    expect(stringList(["x", 3, null])).toEqual(["x", "3"]);
    expect(isoDate("2024-02-01")).toBe("2024-02-01T00:00:00.000Z");
    expect(isoDate(new Date("2024-02-01T10:00:00Z"))).toBe("2024-02-01T10:00:00.000Z");
    expect(isoDate("someday")).toBeNull();
    expect(isoDate(undefined)).toBeUndefined();
  });
});

describe("image references", () => {
  const body = [
    '![One](./a.png) and ![Two](<b c.png> "title")',
    '<img src="img/d.png" alt="Dee">',
    "![Remote](https://example.com/e.png)",
  ].join("\n");

  it("finds Markdown and raw <img> sources", () => {
    expect(findImages(body)).toEqual(["./a.png", "b c.png", "https://example.com/e.png", "img/d.png"]);
  });

  it("replaces, drops to alt text or leaves each one", () => {
    const out = rewriteImages(body, (src) =>
      src === "./a.png" ? "media:1" : src === "b c.png" ? null : src === "img/d.png" ? "media:2" : undefined,
    );
    expect(out).toBe(
      ["![One](media:1) and Two", "![Dee](media:2)", "![Remote](https://example.com/e.png)"].join("\n"),
    );
  });
});

describe("image paths stay inside their folder", () => {
  const root = path.resolve("/srv/docs");
  it("resolves relative and root paths, refuses escapes and leaves links alone", () => {
    expect(localImage(root, "guides", "./img/x.png")).toEqual({
      ref: "./img/x.png",
      file: path.join(root, "guides/img/x.png"),
    });
    expect(localImage(root, "guides", "../../../etc/passwd")).toEqual({
      ref: "../../../etc/passwd",
      file: null,
    });
    expect(localImage(root, "", "https://example.com/x.png")).toBeNull();
    expect(localImage(root, "", "media:0190")).toBeNull();
    expect(ghostImage("/srv/images", "__GHOST_URL__/content/images/../../x.png")).toEqual({
      ref: "__GHOST_URL__/content/images/../../x.png",
      file: null,
    });
    expect(ghostImage(null, "__GHOST_URL__/content/images/a.png")).toEqual({
      ref: "__GHOST_URL__/content/images/a.png",
      file: null,
    });
    expect(ghostImage("/srv/images", "https://cdn.example.com/a.png")).toBeNull();
  });
});

describe("Ghost visibility and tiers", () => {
  const exportOf = (data: Record<string, unknown>) => ({ db: [{ meta: {}, data: { posts: [], ...data } }] });
  const post = (id: string, visibility: string) => ({
    id,
    slug: `post-${id}`,
    title: id,
    html: "<p>x</p>",
    status: "published",
    visibility,
  });
  const products = [
    { id: "p1", name: "Supporter", slug: "supporter", type: "paid", monthly_price: 500, currency: "usd" },
    { id: "p2", name: "Business", slug: "business", type: "paid", monthly_price: 9900, currency: "usd" },
    { id: "p3", name: "Patron", slug: "patron", type: "paid", monthly_price: 777, currency: "eur" },
  ];
  const gates = (options: Parameters<typeof ghostPlan>[2] = {}) =>
    Object.fromEntries(
      ghostPlan(
        exportOf({
          posts: [
            post("a", "public"),
            post("b", "members"),
            post("c", "paid"),
            post("d", "tiers"),
            post("e", "tiers"),
          ],
          products,
          posts_products: [
            { post_id: "d", product_id: "p2" },
            { post_id: "d", product_id: "p1" },
            { post_id: "e", product_id: "p3" },
          ],
        }),
        "export.json",
        options,
      ).contents.map((c) => [c.slug, { tier: c.tier, roles: c.rolesRequired, problems: c.problems }]),
    );

  it("maps visibility: public, members (signed in), paid (lowest paid tier), tiers (lowest mapped)", () => {
    const byPrice = gates({ plans: [{ tier: "Basic", monthlyPriceCents: 500, currency: "USD" }] });
    expect(byPrice["post-a"]).toEqual({ tier: "Free", roles: [], problems: [] });
    expect(byPrice["post-b"]).toEqual({ tier: "Free", roles: ["User"], problems: [] });
    expect(byPrice["post-c"]).toEqual({ tier: "Basic", roles: [], problems: [] });
    // Supporter by price (Basic), Business by name (Enterprise): the lowest, Basic.
    expect(byPrice["post-d"]).toEqual({ tier: "Basic", roles: [], problems: [] });
    // Patron: no name, no price match → an error of the item, naming the map to add.
    expect(byPrice["post-e"]!.problems).toEqual([
      "unknown tier: Ghost tier “Patron” has no tier here; map it with --tier-map patron=<Free|Basic|Pro|Enterprise>",
    ]);
  });

  it("--tier-map wins over names and prices", () => {
    const mapped = gates({ tierMap: parseTierMap("supporter=pro, business=pro ,patron=enterprise") });
    expect(mapped["post-d"]).toMatchObject({ tier: "Pro", problems: [] });
    expect(mapped["post-e"]).toMatchObject({ tier: "Enterprise", problems: [] });
  });

  it("refuses a tier map that names no tier, and a file that is not an export", () => {
    expect(() => parseTierMap("gold=platinum")).toThrow(/gold=platinum/);
    expect(() => parseTierMap("=pro")).toThrow(/not ghost-tier=tier/);
    expect(() => ghostPlan({ posts: "nope" }, "x.json")).toThrow(/not a Ghost export/);
  });
});
