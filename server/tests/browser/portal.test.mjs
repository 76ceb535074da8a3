// Browser test of the developer portal: Playwright (playwright-core) driving Debian's chromium
// headless. run.sh starts `alama serve` and creates the user; this script gets the base URL and
// the one-time sign-in link from the environment (PORTAL_BASE, PORTAL_LINK).
//
// Covers: sign-in from the one-time link; create a Sandbox key (shown once) and use it to
// analyse a statement over the API; the report in Reports; a webhook endpoint pointing at a
// local receiver, an event and a test event delivered and the delivery percentage; the overview's numbers; an
// upload on the Try it page; revoke the key and see the API answer 401; no Content-Security-Policy
// violations or script errors.
// Screenshots of each page go to the folder SCREENSHOTS (run.sh: a temporary folder, or the
// committed docs/portal/ with --update-screenshots); unset, a new temporary folder: never the
// checkout by default, so CI leaves the tracked PNGs alone.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const base = process.env.PORTAL_BASE;
const link = process.env.PORTAL_LINK;
const shots = process.env.SCREENSHOTS || mkdtempSync(path.join(os.tmpdir(), "alama-portal-shots-"));
assert.ok(base && link, "PORTAL_BASE and PORTAL_LINK must be set (run.sh sets them)");
mkdirSync(shots, { recursive: true });

const PASSWORD = "a long browser passphrase";
const statement = JSON.stringify(
  JSON.parse(readFileSync(path.join(repo, "tests/vectors/synthetic-seed1-6m.json"), "utf8")).input,
);

async function analyse(key) {
  const form = new FormData();
  form.append("statement", new Blob([statement], { type: "application/json" }), "statement.json");
  const r = await fetch(`${base}/v1/scores/analyse`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: r.status, body: await r.json() };
}

// A local webhook receiver that answers 200 and counts what it got.
const received = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    received.push({ id: req.headers["webhook-id"], body });
    res.writeHead(200).end("ok");
  });
});
await new Promise((ok) => receiver.listen(0, "127.0.0.1", ok));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
const failures = [];
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.on("console", (m) => {
    // The browser asks for /favicon.ico on its own (the portal has none): not a failure.
    if (m.type() === "error" && !String(m.location().url).endsWith("/favicon.ico")) failures.push(m.text());
  });
  page.on("pageerror", (e) => failures.push(String(e)));
  const shot = (name) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

  // 1. Sign in from the one-time link: set a password.
  await page.goto(link);
  await shot("set-password");
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Repeat it").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.waitForURL("**/portal/overview");
  assert.match(await page.locator("h1").innerText(), /Overview/);

  // 2. Create a Sandbox key: shown once, with a copy button.
  await page.getByRole("link", { name: "API keys" }).click();
  await page.waitForURL("**/portal/keys");
  await page.getByRole("button", { name: "Create a Sandbox key" }).click();
  const keyText = page.locator("#new-key");
  await keyText.waitFor();
  const key = (await keyText.innerText()).trim();
  assert.match(key, /^alama_sk_sandbox_[A-Za-z0-9]{38}$/);
  assert.ok(await page.getByRole("button", { name: "Copy" }).isVisible());
  await shot("keys");
  // htmx keeps no copy of pages (a key shown once must not sit in localStorage).
  await page.getByRole("link", { name: "Overview" }).click();
  await page.waitForURL("**/portal/overview");
  await page.goBack();
  await page.waitForURL("**/portal/keys");
  let stored = null;
  for (let i = 0; i < 50 && stored === null; i++) {
    // With no history cache htmx reloads the page: evaluate once it has settled.
    await page.waitForLoadState("load");
    stored = await page
      .evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage))
      .catch(() => null);
    if (stored === null) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(stored !== null, "the keys page settled after Back");
  assert.ok(!stored.includes(key), "the key is not stored in the browser");

  // 3. A webhook endpoint at the local receiver; its secret shown once.
  await page.getByRole("link", { name: "Webhooks" }).click();
  await page.waitForURL("**/portal/webhooks");
  await page.getByLabel("Endpoint URL").fill(hookUrl);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.locator("#new-secret").waitFor();
  assert.match(await page.locator("#new-secret").innerText(), /^whsec_/);
  await shot("webhooks");

  // 4. Use the key with the API, as a partner's backend would.
  const first = await analyse(key);
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const reportId = first.body.reportId;

  // 5. The event is delivered; the endpoint's page shows 100.0%.
  for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(received.length, 1, "the receiver got the score.completed event");
  assert.equal(JSON.parse(received[0].body).data.reportId, reportId);
  await page.goto(`${base}/portal/webhooks`);
  await page.getByRole("link", { name: hookUrl }).click();
  let delivery = "";
  for (let i = 0; i < 50; i++) {
    delivery = (await page.locator("#delivery").innerText()).trim();
    if (delivery === "100.0%") break;
    await new Promise((r) => setTimeout(r, 200));
    await page.reload();
  }
  assert.equal(delivery, "100.0%");
  assert.ok(await page.getByText("delivered", { exact: true }).first().isVisible());

  // "Send test event": a signed webhook.test event reaches the receiver too.
  await page.getByRole("button", { name: "Send test event" }).click();
  for (let i = 0; i < 100 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(received.length, 2, "the receiver got the test event");
  assert.equal(JSON.parse(received[1].body).type, "webhook.test");
  for (let i = 0; i < 50; i++) {
    await page.reload();
    if ((await page.getByText("delivered", { exact: true }).count()) === 2) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(await page.getByText("delivered", { exact: true }).count(), 2);
  assert.equal((await page.locator("#delivery").innerText()).trim(), "100.0%");
  await shot("endpoint");

  // 6. The report in Reports, and its page.
  await page.getByRole("link", { name: "Reports" }).click();
  await page.waitForURL("**/portal/reports");
  await page.getByRole("link", { name: reportId }).click();
  await page.waitForURL(`**/portal/reports/${reportId}`);
  assert.equal((await page.locator("#score").innerText()).trim(), String(first.body.score));
  await shot("report");

  // 7. Overview: one billable analysis, two webhook events (the report's and the test), delivered.
  await page.getByRole("link", { name: "Overview" }).click();
  await page.waitForURL("**/portal/overview");
  assert.equal((await page.locator("#total-billable").innerText()).trim(), "1");
  assert.equal((await page.locator("#total-events").innerText()).trim(), "2");
  assert.equal((await page.locator("#total-delivery").innerText()).trim(), "100.0%");
  assert.ok((await page.locator("svg.chart rect.bar[data-value='1']").count()) >= 1, "a bar of 1");
  await shot("overview");

  // 8. Try it (Sandbox): upload the statement with the key in the browser; the report opens.
  await page.getByRole("link", { name: "Try it" }).click();
  await page.waitForURL("**/portal/try");
  await page.getByLabel("Sandbox API key").fill(key);
  await page.getByLabel("Statement file").setInputFiles({
    name: "statement.json",
    mimeType: "application/json",
    buffer: Buffer.from(statement),
  });
  await shot("try");
  await page.getByRole("button", { name: "Analyse" }).click();
  await page.waitForURL(/\/portal\/reports\/rpt_/);
  assert.equal((await page.locator("#score").innerText()).trim(), String(first.body.score));

  // 9. Consents: empty in this Sandbox run, but the page renders.
  await page.getByRole("link", { name: "Consents" }).click();
  await page.waitForURL("**/portal/consents");
  assert.ok(await page.getByText("No consents yet.").isVisible());

  // 10. Revoke the key (with confirmation); the API answers 401.
  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByRole("link", { name: "Revoke" }).click();
  await page.getByRole("button", { name: "Revoke key" }).click();
  await page.waitForURL("**/portal/keys");
  assert.ok(await page.getByText("revoked", { exact: false }).first().isVisible());
  const after = await analyse(key);
  assert.equal(after.status, 401);

  // 11. Sign out; pages then ask to sign in.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/portal/signin");
  await shot("signin");
  await page.goto(`${base}/portal/keys`);
  assert.match(page.url(), /\/portal\/signin$/);

  assert.deepEqual(failures, [], "no script errors or CSP violations");
  console.log(`portal browser test passed (report ${reportId}); screenshots in ${shots}`);
} finally {
  await browser.close();
  receiver.close();
}
