import { describe, expect, it } from "vitest";
import { renderCommentBody } from "./comment-render.ts";

describe("renderCommentBody", () => {
  it("renders the Markdown subset", () => {
    const html = renderCommentBody(
      "Hi *there* **you** `x`\n\n```\ncode <b>\n```\n\n- a\n- b\n\n1. one\n\n> quoted\n\n[site](https://example.org)",
    );
    expect(html).toContain("<em>there</em>");
    expect(html).toContain("<strong>you</strong>");
    expect(html).toContain("<code>x</code>");
    expect(html).toContain("<pre><code>code &#x3C;b>");
    expect(html).toContain("<ul>");
    expect(html).toContain("<ol>");
    expect(html).toContain("<blockquote>");
    expect(html).toContain(
      '<a href="https://example.org" rel="nofollow ugc noopener" target="_blank">site</a>',
    );
  });

  it("drops images, headings, raw HTML and unsafe links", () => {
    const corpus = [
      "<script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      "[x](javascript:alert(1))",
      "[x](data:text/html;base64,PHNjcmlwdD4=)",
      "![pic](https://example.org/p.png)",
      '<iframe src="https://evil.example"></iframe>',
      "<svg onload=alert(1)></svg>",
      '<a href="https://e.example" onclick="alert(1)">a</a>',
      "# Big heading",
      "<style>body{display:none}</style>",
    ];
    for (const body of corpus) {
      const html = renderCommentBody(body).toLowerCase();
      for (const bad of [
        "<script",
        "<img",
        "<iframe",
        "<svg",
        "<style",
        "onerror",
        "onload",
        "onclick",
        "javascript:",
        "data:",
        "<h1",
      ])
        expect(html, body).not.toContain(bad);
    }
    expect(renderCommentBody("# Big heading")).toBe("Big heading");
  });

  it("renders an empty body as nothing", () => {
    expect(renderCommentBody("   ")).toBe("");
  });
});
