import { test as base, expect, type APIRequestContext } from "@playwright/test";

export { expect };

type Fixtures = {
  /** Requests to the server with the bootstrap key (`Authorization: Token …`), relative to baseURL. */
  api: APIRequestContext;
};

type WorkerFixtures = {
  /** The bootstrap API key the config gave the server. */
  apiKey: string;
};

export const test = base.extend<Fixtures, WorkerFixtures>({
  apiKey: [
    async ({}, use) => {
      const key = process.env.E2E_API_KEY;
      if (!key) throw new Error("E2E_API_KEY is unset: run the browser tests with `playwright test`.");
      await use(key);
    },
    { scope: "worker" },
  ],

  api: async ({ playwright, baseURL, apiKey }, use) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Token ${apiKey}` },
    });
    await use(api);
    await api.dispose();
  },
});
