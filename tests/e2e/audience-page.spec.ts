import { DEMO_ACCOUNTS } from "../../server/db/seed/accounts.ts";
import { DEMO_CONTENT } from "../../server/db/seed/demo/catalog.ts";
import { expect, hydrated, screenshot, signIn, test } from "./fixtures.ts";

/**
 * A signed-in reader's content page served from their audience's render (decision 039): the
 * server's page holds no name, and the browser fills the reader's own name, id, like and Save.
 */
const item = DEMO_CONTENT.find((c) => c.tier === "Basic" && c.type === "article" && !c.rolesRequired)!;
const pro = DEMO_ACCOUNTS.find((a) => a.email === "pro@demo.local")!;

test("the audience's page shows the reader's own name, like and Save once it runs", async ({ page }) => {
  const path = `/content/${item.slug}`;
  await signIn(page, pro.email, path);
  // The first answer was this reader's own render; a later one is the audience's page.
  let body = "";
  for (let i = 0; i < 20; i++) {
    const answer = await page.reload();
    if (answer?.headers()["x-cache"] === "hit") {
      body = await answer.text();
      break;
    }
    await page.waitForTimeout(100);
  }
  expect(body, "the audience's page was never served").not.toBe("");
  expect(body).not.toContain(pro.name);
  await hydrated(page);
  // The account chip names the reader once their context arrives.
  const chip = page.getByRole("link", { name: new RegExp(pro.name) });
  await expect(chip).toBeVisible();
  const like = page.getByRole("button", { name: /^Like/ });
  const save = page.getByRole("button", { name: /^Save/ });
  await expect(like).toBeEnabled();
  await expect(save).toBeEnabled();
  const likedBefore = (await like.getAttribute("aria-pressed")) === "true";
  const savedBefore = (await save.getAttribute("aria-pressed")) === "true";
  await like.click();
  await save.click();
  await expect(like).toHaveAttribute("aria-pressed", String(!likedBefore));
  await expect(save).toHaveAttribute("aria-pressed", String(!savedBefore));
  // Reloaded, the audience's page again (likes do not change the content), with this reader's state.
  const again = await page.reload();
  expect(again?.headers()["x-cache"]).toBe("hit");
  await hydrated(page);
  await expect(page.getByRole("button", { name: /^Like/ })).toHaveAttribute(
    "aria-pressed",
    String(!likedBefore),
  );
  await expect(page.getByRole("button", { name: /^Save/ })).toHaveAttribute(
    "aria-pressed",
    String(!savedBefore),
  );
  await expect(page.getByRole("link", { name: new RegExp(pro.name) })).toBeVisible();
  await screenshot(page, "audience-page-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole("button", { name: /^Like/ })).toBeEnabled();
  await screenshot(page, "audience-page-390");
  // Put both back for other tests.
  await page.getByRole("button", { name: /^Like/ }).click();
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByRole("button", { name: /^Save/ })).toHaveAttribute(
    "aria-pressed",
    String(savedBefore),
  );
});
