/**
 * The content editor (/create, /content/<id>/edit): a content manager writes a title and a body
 * with a code block, sees the slug follow the title and the live preview render it as the public
 * page does (Shiki), uses the toolbar and the shortcuts help, and saves the draft. Screenshots in
 * light and dark at 1280 and 390 px. CodeMirror is loaded on the editor only, never on public pages.
 */
import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, signIn, test } from "./fixtures.ts";

const SHOTS = process.env.EDITOR_SCREENSHOTS ?? "/tmp/editor";

async function writeBody(page: Page, text: string) {
  const editor = page.locator(".cm-content");
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.type(text);
}

/**
 * The item as the studio answers it, read by the signed-in page itself (a request from outside
 * the browser would carry another user agent, and the session guard would end the session).
 */
function studioItem(page: Page, id: string): Promise<Record<string, unknown>> {
  return page.evaluate(async (itemId) => {
    const res = await fetch(`/api/studio/content/${itemId}`);
    return ((await res.json()) as { item: Record<string, unknown> }).item;
  }, id);
}

async function shots(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /dark/ : /^(?!.*\bdark\b)/);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // The layout settles (the sidebar folds away) before the picture.
      const heading = page.getByRole("heading", { level: 1 }).first();
      await expect
        .poll(async () => (await heading.boundingBox())?.x ?? 999)
        .toBeLessThan(width === 390 ? 40 : 400);
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png`, fullPage: width === 1280 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("the editor", () => {
  // The browser logs the stale save's 409 on purpose.
  test.use({ expectedConsoleErrors: [/status of 409/] });

  test("a content manager writes with a live preview, toolbar and shortcuts", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "manager@demo.local", "/create");
    await expect(page.getByRole("heading", { level: 1, name: "New item" })).toBeVisible();

    await page.getByRole("textbox", { name: "Title", exact: true }).fill("Testing prompts like code");
    await expect(page.getByLabel("Address (slug)")).toHaveValue("testing-prompts-like-code");

    await writeBody(
      page,
      "## Why test prompts\n\nA prompt is code.\n\n```ts\nconst answer: number = 42;\n```\n\n## How\n\nStart small.\n",
    );
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview.getByRole("heading", { level: 2, name: "Why test prompts" })).toBeVisible();
    await expect(preview.locator("pre.shiki[data-language='typescript']")).toContainText("const answer");
    await expect(preview.getByRole("navigation", { name: "On this page" })).toContainText("How");

    // The toolbar acts on the selection; the shortcut does the same.
    await page.getByRole("button", { name: "Bold" }).click();
    await expect(page.locator(".cm-content")).toContainText("**bold text**");
    await page.keyboard.press("ControlOrMeta+z");
    // "Preview ends here" marks the end of the public preview (readers without the plan see above it).
    await page.getByRole("button", { name: "Preview ends here" }).click();
    await expect(page.locator(".cm-content")).toContainText("<!-- more -->");
    await page.keyboard.press("ControlOrMeta+z");
    await expect(page.locator(".cm-content")).not.toContainText("<!-- more -->");
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toContainText("Save now");
    await expect(help).toContainText("Preview ends here");
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();

    // Client checks name the field before anything is sent.
    await page.getByLabel("Canonical URL").fill("http://insecure.example");
    await expect(page.getByText("Use an https:// address or a path starting with /.")).toBeVisible();
    await page.getByLabel("Canonical URL").fill("");
    await page.getByLabel("JSON-LD").fill('{"@type": "Article",}');
    await expect(page.getByText(/Line 1, column 20: a comma before \}/)).toBeVisible();
    await page.getByLabel("JSON-LD").fill('{"@type": "Article"}');
    await expect(page.getByText("Valid JSON.")).toBeVisible();

    await expectNoSeriousA11yViolations(page);
    await page.getByRole("textbox", { name: "Title", exact: true }).scrollIntoViewIfNeeded();
    await shots(page, "editor-create");

    // Narrow screens switch between writing and the preview with tabs.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("tab", { name: "Preview" }).click();
    await expect(preview.getByRole("heading", { level: 2, name: "How" })).toBeVisible();
    await expect(page.locator(".cm-content")).toBeHidden();
  });

  test("edits the browser delivers back to back, with no other task between them, keep the editor working", async ({
    page,
  }) => {
    // A loaded browser may run many input events before any other task. Each edit renders at
    // once; had the editor scheduled one more update after each of them (state set in an effect on
    // every change), React would stop after 50 with "Maximum update depth exceeded" (#185) in the
    // middle of the writer's typing. The edits here are input events with only microtasks between.
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "manager@demo.local", "/create");
    await expect(page.locator(".cm-content")).toBeVisible();
    const edits = 120;
    const typed = await page.evaluate(async (count) => {
      const settle = async () => {
        await new Promise<void>((resolve) => queueMicrotask(resolve));
        await new Promise<void>((resolve) => queueMicrotask(resolve));
      };
      const title = document.querySelector<HTMLInputElement>('input[aria-label="Title"]')!;
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      for (let i = 0; i < count; i++) {
        setValue.call(title, `${title.value}a`);
        title.dispatchEvent(new Event("input", { bubbles: true }));
        await settle();
      }
      // The body: the Bold shortcut, which CodeMirror runs inside the key event. It wraps the
      // selection and unwraps it again: an odd number of them leaves it wrapped.
      const body = document.querySelector<HTMLElement>(".cm-content")!;
      body.focus();
      for (let i = 0; i < count + 1; i++) {
        body.dispatchEvent(
          new KeyboardEvent("keydown", {
            key: "b",
            code: "KeyB",
            ctrlKey: true,
            bubbles: true,
            cancelable: true,
          }),
        );
        await settle();
      }
      return title.value.length;
    }, edits);
    expect(typed).toBe(edits);
    await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue("a".repeat(edits));
    await expect(page.locator(".cm-content")).toHaveText("**bold text**");
    await expect(page.getByTestId("save-status")).toHaveText("Not saved yet");
  });

  test("an existing item opens with its text; leaving with unsaved changes asks first", async ({
    page,
    request,
  }) => {
    const { items } = (await (
      await request.get("/api/content?limit=1&section=ai-education&tier=free")
    ).json()) as {
      items: { id: string; title: string }[];
    };
    const item = items[0]!;
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "manager@demo.local", `/content/${item.id}/edit`);
    await expect(page.getByRole("heading", { level: 1, name: /Edit item/ })).toContainText("Published");
    await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue(item.title);
    await expect(page.getByTestId("save-status")).toHaveText("All changes saved");
    await expect(page.getByText("Published: saving makes your changes live at once.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Preview" }).locator(".prose-content")).not.toBeEmpty();
    await shots(page, "editor-edit");

    await writeBody(page, "An unsaved change. ");
    await expect(page.getByTestId("save-status")).toHaveText(/Unsaved changes/);
    await page.getByRole("link", { name: "Dashboard" }).first().click();
    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(leave).toBeVisible();
    await leave.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(new RegExp(`/content/${item.id}/edit$`));
    await expect(page.locator(".cm-content")).toContainText("An unsaved change.");
    await page.getByRole("link", { name: "Dashboard" }).first().click();
    await page
      .getByRole("dialog", { name: "Leave without saving?" })
      .getByRole("button", { name: "Leave and lose changes" })
      .click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a save sends only the changes with the version; a stale save keeps the writer's text", async ({
    page,
    request,
  }) => {
    // The server's write endpoints are stood in for here: this checks what the editor sends and
    // how it treats the answers (the endpoints have their own tests).
    const { items } = (await (
      await request.get("/api/content?limit=1&section=ai-news&tier=free")
    ).json()) as {
      items: { id: string; slug: string; title: string }[];
    };
    const item = items[0]!;
    const sent: Record<string, unknown>[] = [];
    /** The item as the studio answers it, for the stand-in answers (read after signing in). */
    let stored: Record<string, unknown> = {};
    await page.route(`**/api/content/${item.id}`, async (route) => {
      if (route.request().method() !== "PATCH") return route.fallback();
      const body = route.request().postDataJSON() as Record<string, unknown>;
      sent.push(body);
      if (sent.length === 1) {
        return route.fulfill({
          json: { item: { ...stored, ...body, version: Number(body.version) + 1 } },
        });
      }
      return route.fulfill({
        status: 409,
        json: {
          error: {
            code: "STALE_VERSION",
            message:
              "This item was changed by Eddie Editor at 14:02 (now version 9); your changes were not saved.",
            field: { version: "stale" },
          },
        },
      });
    });
    const theirs = () => ({
      ...stored,
      id: item.id,
      slug: item.slug,
      title: "Their title",
      type: "article",
      section: "ai-news",
      categorySlug: null,
      excerpt: null,
      tags: [],
      tier: "Free",
      rolesRequired: [],
      seoTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      noindex: false,
      seoKeywords: [],
      ogTitle: null,
      ogDescription: null,
      ogImage: null,
      twitterCard: null,
      schemaType: null,
      structuredData: null,
      featured: false,
      featuredOrder: null,
      featuredImage: null,
      featuredImageAlt: null,
      related: [],
      body: "Their text.",
      state: "published",
      version: 9,
      publicUrl: `/content/${item.slug}`,
    });

    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "manager@demo.local", `/content/${item.id}/edit`);
    stored = await studioItem(page, item.id);
    await page.route(`**/api/studio/content/${item.id}`, (route) =>
      route.fulfill({ json: { item: theirs() } }),
    );
    const title = page.getByRole("textbox", { name: "Title", exact: true });
    await title.fill("A sharper title");
    await page.getByRole("button", { name: "Save and publish changes" }).click();
    await expect(page.getByTestId("save-status")).toHaveText(/^Saved \d\d:\d\d$/);
    expect(sent[0]).toEqual({ version: expect.any(Number), title: "A sharper title" });

    await writeBody(page, "My own words. ");
    await page.keyboard.press("ControlOrMeta+s");
    const stale = page.getByRole("dialog", { name: "Someone else changed this item" });
    await expect(stale).toContainText("changed by Eddie Editor at 14:02");
    expect(sent[1]).toMatchObject({ version: Number(sent[0]!.version) + 1 });
    expect(Object.keys(sent[1]!)).toEqual(["version", "body"]);
    await stale.getByRole("button", { name: /Load their version/ }).click();
    await expect(stale).toBeHidden();
    await expect(page.locator(".cm-content")).toHaveText("Their text.");
    await expect(title).toHaveValue("Their title");
    await expect(
      page.getByRole("textbox", { name: "Your text before you loaded their version" }),
    ).toHaveValue(/My own words\./);
    await expect(page.getByTestId("save-status")).toHaveText("All changes saved");
  });

  test("the first save sends the new item and moves to its own address", async ({ page, request }) => {
    // POST /api/content is stood in for: the new item answered is an existing one, so its editor opens.
    const { items } = (await (
      await request.get("/api/content?limit=1&section=ai-news&tier=free")
    ).json()) as {
      items: { id: string; title: string }[];
    };
    const existing = items[0]!;
    let sent: Record<string, unknown> | null = null;
    let answer: unknown = null;
    await page.route("**/api/content", async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      sent = route.request().postDataJSON() as Record<string, unknown>;
      return route.fulfill({ status: 201, json: { item: answer } });
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "manager@demo.local", "/create");
    answer = await studioItem(page, existing.id);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Give the item a title.")).toBeVisible();
    expect(sent).toBeNull();

    await page.getByRole("textbox", { name: "Title", exact: true }).fill("Café notes & more");
    await writeBody(page, "# Notes\n");
    await page.getByLabel("Tags").fill("notes, cafe,");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(new RegExp(`/content/${existing.id}/edit$`));
    await expect(page.getByRole("dialog", { name: "Leave without saving?" })).toBeHidden();
    await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue(existing.title);
    expect(sent).toEqual({
      title: "Café notes & more",
      slug: "cafe-notes-and-more",
      type: "article",
      tier: "Free",
      noindex: false,
      featured: false,
      tags: ["notes", "cafe"],
      body: "# Notes\n",
    });
  });

  test("CodeMirror is not part of the public pages", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto("/");
    await page
      .getByRole("link", { name: /AI Education/ })
      .first()
      .click();
    await expect(page).toHaveURL(/ai-education/);
    expect(scripts.filter((s) => /codemirror|editor-screen/.test(s))).toEqual([]);
  });

  test("saving a draft moves to its own address and autosaves after that", async ({ page }) => {
    test.setTimeout(60_000); // a sign-in, two saves and an autosave timer
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "manager@demo.local", "/create");
    // A title of its own, so a repeated run (or a retry) does not meet the last run's address.
    const run = Date.now().toString(36);
    await page.getByRole("textbox", { name: "Title", exact: true }).fill(`A draft that saves itself ${run}`);
    await writeBody(page, "First words.\n\n```py\nprint('hi')\n```\n");
    await expect(page.getByLabel("Address (slug)")).toHaveValue(`a-draft-that-saves-itself-${run}`);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/\/content\/[^/]+\/edit$/);
    await expect(page.getByTestId("save-status")).toHaveText("All changes saved");
    await expect(page.getByText("Draft", { exact: true }).first()).toBeVisible();

    await writeBody(page, "More words.");
    await expect(page.getByTestId("save-status")).toHaveText("Unsaved changes");
    await expect(page.getByTestId("save-status")).toHaveText(/^Saved \d\d:\d\d$/, { timeout: 10_000 });
    await page.reload();
    await expect(page.locator(".cm-content")).toContainText("More words.");
    await shots(page, "editor-edit");
  });
});
