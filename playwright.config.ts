import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3217);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  // One retry: a test that fails once and then passes is reported as flaky in the output (so it
  // is seen and fixed), a test that fails twice fails the run.
  retries: 1,
  timeout: 30_000,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
        // The browser's own Accept-Language, as Playwright's locale emulation sends it: requests the
        // browser process makes itself (keepalive fetches during navigation) skip the emulation,
        // and the session guard binds a session to user agent and language.
        "--accept-lang=en-US",
      ],
    },
  },
  webServer: {
    command: `node tests/e2e/serve.ts`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { PORT: String(PORT), HOST: "127.0.0.1" },
  },
});
