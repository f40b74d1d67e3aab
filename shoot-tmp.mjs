import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3320";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--disable-gpu","--disable-background-networking","--disable-component-update","--no-first-run"] });
async function shot(name, path, { width = 1280, dark = false, user = null, full = false } = {}) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: dark ? "dark" : "light" });
  const page = await ctx.newPage();
  if (user) {
    await page.goto(`${base}/auth/signin`);
    await page.locator("html[data-hydrated='true']").waitFor({ state: "attached" });
    await page.getByLabel("E-mail, username or phone").fill(user);
    await page.getByLabel("Password", { exact: true }).fill("Demo-Passw0rd!");
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/auth")), page.getByRole("button", { name: /^sign in$/i }).click()]);
  }
  await page.goto(base + path);
  await page.locator("html[data-hydrated='true']").waitFor({ state: "attached" });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: full });
  await ctx.close();
}
const [,, ...args] = process.argv;
const jobs = JSON.parse(args[0]);
for (const j of jobs) await shot(j.name, j.path, j);
await browser.close();
