// Browser test of the developer portal: Playwright (playwright-core) driving Debian's chromium
// headless. run.sh starts `alama serve` and creates the user; this script gets the base URL and
// the one-time sign-in link from the environment (PORTAL_BASE, PORTAL_LINK).
//
// Covers: sign-in from the one-time link; create a Sandbox key (shown once) and use it to
// analyse a statement over the API; the report in Reports; a webhook endpoint pointing at a
// local receiver, an event and a test event delivered and the delivery percentage; a report
// page per wallet (Safaricom M-Pesa Kenya JSON, Airtel Money Uganda PDF under a consent, MTN
// MoMo Ghana CSV: the project's seeded synthetic statements of tests/vectors, never real ones)
// with its band ladder, graded factors, reason codes once each, cash-flow chart, integrity
// verdict with its evidence level, the wallet's name, zone and currency form; every page at
// 390 px without sideways scrolling; the overview's numbers; Try it in Sandbox (a refusal keeps
// the key and the file) and in Live (switches to Sandbox and says so); Try it with two
// statements and loan terms (an application and its page); a statement seen before marked in
// the reports list; the consents page (short
// notice hashes with copy buttons); revoke the key and see the API answer 401; no
// Content-Security-Policy violations or script errors.
// Screenshots of each page go to the folder SCREENSHOTS (run.sh: a temporary folder, or the
// committed docs/portal/ with --update-screenshots); unset, a new temporary folder: never the
// checkout by default, so CI leaves the tracked PNGs alone.
// (Over 400 lines: one browser session in numbered steps, each using the key, reports and pages
// the earlier steps made.)

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
const vectors = path.join(repo, "tests/vectors");
const statement = JSON.stringify(
  JSON.parse(readFileSync(path.join(vectors, "synthetic-seed1-6m.json"), "utf8")).input,
);
// The engine's seeded application of two SIMs with a transfer between them (its inputs).
const ownTransfer = JSON.parse(
  readFileSync(path.join(vectors, "applications/application-own-transfer-seed14.json"), "utf8"),
);
// The other wallets' seeded synthetic statements, in their own formats.
const airtel = readFileSync(path.join(vectors, "wallet-airtel-ug-seed1-60rows.pdf"));
const mtn = readFileSync(path.join(vectors, "wallet-mtn-gh-seed2-80rows.csv"));

async function analyse(key, bytes = statement, name = "statement.json", fields = {}) {
  const form = new FormData();
  form.append("statement", new Blob([bytes]), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const r = await fetch(`${base}/v1/scores/analyse`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: r.status, body: await r.json() };
}

async function api(key, method, route, body) {
  const r = await fetch(`${base}/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
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

// Checks a report page against the API's report: the PDF's first page, in the wallet's terms.
async function checkReport(page, report, want) {
  const text = await page.locator("main").innerText();
  assert.equal((await page.locator("#score").innerText()).trim(), String(report.score));
  assert.equal((await page.locator("#band").innerText()).trim(), report.band);
  const bandClass = "band-" + report.band.toLowerCase().replace(" ", "-");
  assert.match(await page.locator("#band").getAttribute("class"), new RegExp(bandClass));
  assert.equal(await page.locator("#band-ladder rect.rung").count(), 5, "the band ladder");
  assert.equal(await page.locator(`#band-ladder rect.rung.current.${bandClass}`).count(), 1);
  assert.equal((await page.locator("#wallet").innerText()).trim(), want.wallet);
  assert.equal((await page.locator("#currency").innerText()).trim(), want.currency);
  assert.equal((await page.locator("#period").innerText()).trim(), want.period);
  assert.match(await page.locator("#created").innerText(), new RegExp(` ${want.zone}$`));
  assert.ok(!text.includes(report.statement.provider + " ") || report.statement.provider === "mpesa", "no wallet code");
  assert.equal(await page.locator("#holder").innerText(), report.statement.holderName ?? "Not stated");
  // Factors graded by the share of points earned.
  const grades = await page.locator("#factors rect.fill").evaluateAll((rs) => rs.map((r) => r.dataset.grade));
  assert.equal(grades.length, report.factors.length);
  report.factors.forEach((f, i) => {
    const share = f.max === 0 ? 0 : f.score / f.max;
    const grade = share >= 0.75 ? "good" : share >= 0.5 ? "ok" : share >= 0.25 ? "weak" : "poor";
    assert.equal(grades[i], grade, `${f.name} ${f.score}/${f.max}`);
  });
  // Reason codes once each, with their points summed, largest first (a K code first).
  const codes = await page.locator("#reasons .code").allInnerTexts();
  assert.equal(new Set(codes).size, codes.length, `reason codes repeat: ${codes}`);
  const sums = new Map();
  for (const r of report.reasonCodes) sums.set(r.code, (sums.get(r.code) ?? 0) + r.pointsLost);
  assert.deepEqual([...codes].sort(), [...sums.keys()].sort());
  const points = await page.locator("#reasons .lost").evaluateAll((ls) => ls.map((l) => Number(l.dataset.points)));
  codes.forEach((c, i) => assert.equal(points[i], sums.get(c), c));
  const ordinary = points.filter((_, i) => !codes[i].startsWith("K"));
  assert.deepEqual(ordinary, [...ordinary].sort((a, b) => b - a), "largest first");
  // The integrity verdict, coloured, with its evidence level in words.
  assert.equal((await page.locator("#integrity-status").innerText()).trim().toLowerCase(), report.integrity.status);
  assert.match(await page.locator("#evidence").innerText(), new RegExp(want.evidence));
  // The chart: two bars a month, from the API's monthly figures.
  assert.equal(await page.locator("#cash-chart rect.in").count(), report.statement.monthly.length);
  assert.equal(await page.locator("#cash-chart rect.out").count(), report.statement.monthly.length);
  // Every insight under a title, whole.
  assert.equal(await page.locator("#insights .insight .label").count(), report.insights.length);
  for (const i of report.insights) assert.ok(text.includes(i.message), `insight ${i.code}`);
  // Each currency's customary form: no cents on the Ugandan shilling in prose.
  if (want.currency === "UGX") assert.doesNotMatch(text, /UGX [\d,]+\.\d/, "UGX with decimals");
  else assert.match(text, new RegExp(`${want.currency} [\\d,]+\\.\\d\\d`));
}

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
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

  // 6. The report in Reports, and its page: what the PDF's first page shows.
  await page.getByRole("link", { name: "Reports" }).click();
  await page.waitForURL("**/portal/reports");
  await page.getByRole("link", { name: reportId }).click();
  await page.waitForURL(`**/portal/reports/${reportId}`);
  assert.equal((await page.locator("#score").innerText()).trim(), String(first.body.score));
  await checkReport(page, first.body, {
    wallet: "Safaricom M-Pesa Kenya",
    currency: "KES",
    zone: "EAT",
    evidence: "JSON made by software",
    period: "1 Jan 2024 – 30 Jun 2024",
  });
  assert.ok(await page.locator("#test-data").isVisible(), "a Sandbox report is marked as test data");
  await shot("report");

  // 6b. A Ugandan statement (Airtel's PDF) under a granted consent whose notice names the
  // wallet and Uganda's law, and a Ghanaian one (MTN's CSV).
  const consent = await api(key, "POST", "/consents", {
    customerReference: "APP-UG-1001",
    purpose: "credit_scoring",
    wallet: "airtel-money-ug",
  });
  assert.equal(consent.status, 201, JSON.stringify(consent.body));
  assert.match(consent.body.notice.text, /your Airtel Money Uganda statement/);
  assert.match(consent.body.notice.text, /Data Protection and Privacy Act, 2019/);
  assert.doesNotMatch(consent.body.notice.text, /M-Pesa/);
  const granted = await api(key, "POST", `/consents/${consent.body.consentId}/grant`, {
    method: "app",
    noticeSha256: consent.body.notice.sha256,
  });
  assert.equal(granted.status, 200, JSON.stringify(granted.body));
  const ug = await analyse(key, airtel, "airtel.pdf", { consentId: consent.body.consentId });
  assert.equal(ug.status, 201, JSON.stringify(ug.body));
  await page.goto(`${base}/portal/reports/${ug.body.reportId}`);
  await checkReport(page, ug.body, {
    wallet: "Airtel Money Uganda",
    currency: "UGX",
    zone: "EAT",
    // The fixture is written by lopdf, not by Airtel's Qt writer it names: issue 50's writer
    // check calls it re-saved (docs/integrity.md, "Each wallet's writer, measured").
    evidence: "Re-saved PDF",
    period: "1 Mar 2026 – 31 Mar 2026",
  });
  assert.equal((await page.locator("#customer").innerText()).trim(), "APP-UG-1001");
  await shot("report-uganda");
  const gh = await analyse(key, mtn, "mtn.csv");
  assert.equal(gh.status, 201, JSON.stringify(gh.body));
  await page.goto(`${base}/portal/reports/${gh.body.reportId}`);
  await checkReport(page, gh.body, {
    wallet: "MTN MoMo Ghana",
    currency: "GHS",
    zone: "GMT",
    evidence: "CSV export",
    period: "1 Mar 2025 – 13 Apr 2025",
  });
  assert.match(await page.locator("#evidence-meaning").innerText(), /A CSV cannot be authenticated/);
  await shot("report-ghana");

  // 6c. At 390 px (a phone): no page scrolls sideways, the report's id wraps.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const route of [
    `/portal/reports/${ug.body.reportId}`,
    `/portal/reports/${gh.body.reportId}`,
    `/portal/reports/${reportId}`,
    "/portal/reports",
    "/portal/overview",
    "/portal/consents",
    "/portal/keys",
    "/portal/webhooks",
    "/portal/try",
  ]) {
    await page.goto(`${base}${route}`);
    const [scroll, inner] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    assert.ok(scroll <= inner, `${route} scrolls sideways at 390 px (${scroll} > ${inner})`);
  }
  await page.goto(`${base}/portal/reports/${ug.body.reportId}`);
  await shot("report-390px");
  await page.setViewportSize({ width: 1280, height: 900 });
  // At 1280 px the header is one line: brand, navigation, environment and sign-out share a row.
  const tops = await page.evaluate(() =>
    [".brand", "nav", ".env", "header.top form:last-child"].map(
      (s) => document.querySelector(s).getBoundingClientRect().top,
    ),
  );
  assert.ok(Math.max(...tops) - Math.min(...tops) < 12, `the header wraps at 1280 px: ${tops}`);

  // 7. Overview: three billable analyses (Sandbox counts them as Live would), four webhook
  // events (one per report and the test), delivered; a scale on each chart; the table lists
  // the active day alone; ISO dates typed, whatever the browser's locale.
  for (let i = 0; i < 50; i++) {
    await page.goto(`${base}/portal/overview`);
    if ((await page.locator("#total-delivery").innerText()).trim() === "100.0%") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal((await page.locator("#total-billable").innerText()).trim(), "3");
  assert.equal((await page.locator("#total-events").innerText()).trim(), "4");
  assert.equal((await page.locator("#total-delivery").innerText()).trim(), "100.0%");
  assert.ok((await page.locator("svg.chart rect.bar[data-value='3']").count()) >= 1, "a bar of 3");
  assert.equal(await page.locator("svg.chart").first().locator("text").count() >= 10, true, "a scale and dates");
  assert.equal(await page.locator("#usage-table tbody tr").count(), 1, "only the active day is listed");
  assert.equal(await page.locator("#from").getAttribute("type"), "text");
  assert.match(await page.locator("#from").inputValue(), /^\d{4}-\d{2}-\d{2}$/);
  await shot("overview");

  // 8. Try it (Sandbox): a refusal keeps the key and the chosen file; then the statement is
  // analysed and its report opens.
  await page.getByRole("link", { name: "Try it" }).click();
  await page.waitForURL("**/portal/try");
  assert.match(await page.locator("main").innerText(), /Airtel Money Uganda/);
  await page.getByLabel("Sandbox API key").fill(key);
  await page.getByLabel("Statement file", { exact: false }).setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("these are not the statements you are looking for"),
  });
  await page.getByRole("button", { name: "Analyse" }).click();
  await page.locator("#try-error").waitFor();
  assert.match(await page.locator("#try-error").innerText(), /unsupported_format|unsupported_wallet/);
  assert.equal(await page.getByLabel("Sandbox API key").inputValue(), key, "the key stays");
  assert.equal(await page.locator("#statement").evaluate((e) => e.files.length), 1, "the file stays");
  await page.getByLabel("Statement file", { exact: false }).setInputFiles({
    name: "statement.json",
    mimeType: "application/json",
    buffer: Buffer.from(statement),
  });
  await shot("try");
  await page.getByRole("button", { name: "Analyse" }).click();
  await page.waitForURL(/\/portal\/reports\/rpt_/);
  assert.equal((await page.locator("#score").innerText()).trim(), String(first.body.score));

  // 8b. Try it with Live selected: the page says the analysis runs in Sandbox; the report
  // opens in Sandbox (not a 404) and says the portal switched.
  await page.getByRole("button", { name: "Switch to Live" }).click();
  await page.waitForURL("**/portal/overview");
  await page.getByRole("link", { name: "Try it" }).click();
  await page.waitForURL("**/portal/try");
  assert.ok(await page.locator("#try-live").isVisible());
  await page.getByLabel("Sandbox API key").fill(key);
  await page.getByLabel("Statement file", { exact: false }).setInputFiles({
    name: "mtn.csv",
    mimeType: "text/csv",
    buffer: mtn,
  });
  await page.getByRole("button", { name: "Analyse" }).click();
  await page.waitForURL(/\/portal\/reports\/rpt_[0-9A-Za-z]+\?from=try$/);
  assert.equal((await page.locator("#score").innerText()).trim(), String(gh.body.score));
  assert.match(await page.locator("#notice").innerText(), /now shows Sandbox/);
  assert.ok(await page.locator("header .badge.sandbox").isVisible(), "the session is in Sandbox");

  // 8c. Try it with two statements of one applicant (two SIMs, a transfer between them) and
  // loan terms: an application; its page shows the statements read, the own transfers and the
  // affordability, as GET /v1/applications/{id} answers them.
  await page.getByRole("link", { name: "Try it" }).click();
  await page.waitForURL("**/portal/try");
  await page.getByLabel("Sandbox API key").fill(key);
  await page.getByLabel("Statement file", { exact: false }).setInputFiles(
    ownTransfer.inputs.map((s, i) => ({
      name: `sim${i + 1}.json`,
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(s)),
    })),
  );
  await page.getByLabel("Principal").fill("20000");
  await page.getByLabel("Tenor in months").fill("6");
  await page.getByLabel("Monthly rate", { exact: false }).fill("0.035");
  await page.getByRole("button", { name: "Analyse" }).click();
  await page.waitForURL(/\/portal\/applications\/app_[0-9A-Za-z]+$/);
  const applicationId = page.url().split("/").pop();
  const application = await api(key, "GET", `/applications/${applicationId}`);
  assert.equal(application.status, 200);
  assert.match(await page.locator("h1").innerText(), /^Application/);
  assert.equal((await page.locator("#score").innerText()).trim(), String(application.body.score));
  assert.equal(await page.locator("#statements tbody tr").count(), 2);
  for (const st of application.body.statements) {
    assert.match(await page.locator("#statements").innerText(), new RegExp(st.reportId));
  }
  assert.match(await page.locator("#findings").innerText(), /own_transfers/);
  assert.equal(
    (await page.locator("#affordability-verdict").innerText()).trim().toLowerCase(),
    application.body.affordability.fits ? "fits" : "does not fit",
  );
  assert.match(await page.locator("#instalment").innerText(), /^KES [\d,]+\.\d\d$/);
  await shot("application");
  // The reports list links the application to its page.
  await page.getByRole("link", { name: "Reports", exact: true }).click();
  await page.waitForURL("**/portal/reports");
  await page.locator(`a[href="/portal/applications/${applicationId}"]`).click();
  await page.waitForURL(`**/portal/applications/${applicationId}`);

  // 8d. Statements seen before: the same statement under two customer references (Sandbox,
  // with consents); the reports list marks the second.
  const seen = [];
  for (const ref of ["SEEN-A", "SEEN-B"]) {
    const c = await api(key, "POST", "/consents", { customerReference: ref, purpose: "credit_scoring" });
    assert.equal(c.status, 201);
    const g = await api(key, "POST", `/consents/${c.body.consentId}/grant`, {
      method: "app",
      noticeSha256: c.body.notice.sha256,
    });
    assert.equal(g.status, 200);
    const r = await analyse(key, JSON.stringify(ownTransfer.inputs[0]), "seen.json", {
      consentId: c.body.consentId,
    });
    assert.equal(r.status, 201);
    seen.push(r.body);
  }
  const flagged = seen[1].integrity.findings.find((f) => f.code === "statement_seen_before");
  assert.ok(flagged, "the second is seen before");
  await page.getByRole("link", { name: "Reports", exact: true }).click();
  await page.waitForURL("**/portal/reports");
  const seenRow = page.locator("tr", { has: page.locator(`a[href="/portal/reports/${seen[1].reportId}"]`) });
  assert.ok(await seenRow.locator(".seen-before").isVisible(), "marked seen before");
  const firstRow = page.locator("tr", { has: page.locator(`a[href="/portal/reports/${seen[0].reportId}"]`) });
  assert.equal(await firstRow.locator(".seen-before").count(), 0);
  await page.locator(`a[href="/portal/reports/${seen[1].reportId}"]`).click();
  assert.match(await page.locator("#findings").innerText(), new RegExp(`statement_seen_before`));
  assert.match(await page.locator("#findings").innerText(), new RegExp(seen[0].reportId));

  // 9. Consents: the Ugandan consent, its notice hash short with a copy button.
  await page.getByRole("link", { name: "Consents" }).click();
  await page.waitForURL("**/portal/consents");
  const row = page.locator("#consents tbody tr", { hasText: "APP-UG-1001" });
  assert.match(await row.innerText(), /APP-UG-1001/);
  assert.match(await row.innerText(), /2026-12 · [0-9a-f]{12}…/);
  assert.ok(await row.getByRole("button", { name: "Copy the notice's SHA-256" }).isVisible());
  assert.equal(
    (await row.locator(`#sha-${consent.body.consentId}`).textContent()).trim(),
    consent.body.notice.sha256,
  );
  await shot("consents");

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
