// The page as a user meets it, in Debian's chromium driven by playwright-core: start a friction
// analysis of the bundled example picked from the server's examples folder, answer its three
// checkpoints (at data_prep a refused structured answer, then filters), reload mid-run, open the
// report; then start one on an uploaded file.
// Usage: node browser.mjs PLANFIRST DATA.csv OUT_DIR   (screenshots of each step land in OUT_DIR)
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const [planfirst, data, outDir] = process.argv.slice(2);
if (!planfirst || !data || !outDir) {
  console.error("usage: node browser.mjs PLANFIRST DATA.csv OUT_DIR");
  process.exit(2);
}
const webDir = resolve(new URL("..", import.meta.url).pathname, "dist");
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "planfirst-web-"));
const portFile = join(work, "port");
// The examples folder holds the test's contacts as the bundled example; sales.csv is missing from it.
const examplesDir = join(work, "examples");
mkdirSync(examplesDir);
copyFileSync(data, join(examplesDir, "contacts.csv"));

function fail(message) {
  throw new Error(message);
}

async function waitFor(predicate, what, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  fail(`timed out waiting for ${what}`);
}

const server = spawn(planfirst, ["serve", "--port", "0", "--port-file", portFile, "--data-dir", work, "--web", webDir,
  "--examples", examplesDir], {
  stdio: ["ignore", "inherit", "inherit"],
});
let browser;
let step = 0;
try {
  await waitFor(() => existsSync(portFile) && readFileSync(portFile, "utf8").trim() !== "", "the server's port", 60);
  const base = `http://127.0.0.1:${readFileSync(portFile, "utf8").trim()}/`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const shot = async (name) => page.screenshot({ path: join(outDir, `${String(++step).padStart(2, "0")}-${name}.png`), fullPage: true });
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));

  await page.goto(base);
  await page.waitForSelector("#assistant option[value=friction]", { state: "attached" });
  await page.waitForSelector("#example option[value='contacts.csv']", { state: "attached" });
  if (!(await page.$eval("#example option[value='sales.csv']", (option) => option.disabled))) fail("a missing example can be picked");
  const hint = await page.textContent("#example-hint");
  if (!hint?.includes("sales.csv is missing")) fail(`the page does not say how to get the missing example: ${hint}`);
  await page.selectOption("#example", "contacts.csv");
  if ((await page.inputValue("#assistant")) !== "friction") fail("picking the contacts example did not pick the friction graph");
  await shot("start");
  await page.click("#start-button");

  const answered = [];
  for (let checkpoint = 1; checkpoint <= 3; ++checkpoint) {
    await page.waitForSelector("#checkpoint:not([hidden])", { timeout: 180000 });
    let id = await page.getAttribute("#checkpoint", "data-checkpoint");
    if (!id) fail(`checkpoint ${checkpoint} has no checkpoint id`);
    if (answered.includes(id)) fail(`checkpoint ${id} was shown again after it was answered`);
    const message = await page.textContent("#checkpoint-message");
    if (!message || message.trim() === "") fail(`checkpoint ${checkpoint} shows no message`);
    await shot(`checkpoint-${checkpoint}`);
    if (checkpoint === 2) {
      // A reload while the thread waits: the same open checkpoint comes back, nothing older.
      await page.reload();
      await page.waitForSelector("#checkpoint:not([hidden])", { timeout: 60000 });
      if ((await page.getAttribute("#checkpoint", "data-checkpoint")) !== id) fail("a reload showed another checkpoint");
      // Seed 003 §7.3-§7.4: the state itself names the open prompt's checkpoint and the last node done.
      const thread = new URL(page.url()).hash.replace("#thread=", "");
      const head = await (await fetch(new URL(`threads/${thread}/state`, base))).json();
      if (head.values.checkpoint_id !== id) fail(`the state names checkpoint ${head.values.checkpoint_id}, the page ${id}`);
      if (!(await page.textContent("#thread-status"))?.includes(`last completed: ${head.values.last_completed_node}`))
        fail("the page does not show the state's last completed node");
      await shot("after-reload");
      // A structured answer the graph refuses names its field, and the same prompt stays open.
      await page.fill("#checkpoint-answer", '{"filters": {"channels": ["fax"]}}');
      await page.click("#answer");
      await waitFor(async () => (await page.textContent("#checkpoint-error"))?.includes("/filters/channels/0"),
        "the refused answer's error", 60);
      await page.waitForSelector("#checkpoint:not([hidden])", { timeout: 60000 });
      if ((await page.getAttribute("#checkpoint", "data-checkpoint")) !== id) fail("a refused answer moved the checkpoint");
      await shot("refused-answer");
      // Filters answered here: data_prep runs again with them and asks again, under a new checkpoint.
      await page.fill("#checkpoint-answer", '{"filters": {"channels": ["chat"]}}');
      await page.click("#answer");
      answered.push(id);
      await page.waitForFunction((old) => {
        const box = document.querySelector("#checkpoint");
        return box !== null && !box.hidden && box.dataset.checkpoint !== old;
      }, id, { timeout: 180000 });
      id = await page.getAttribute("#checkpoint", "data-checkpoint");
      const filtered = await page.textContent("#checkpoint-message");
      if (!filtered?.includes('Filters: {"channels":["chat"]}')) fail(`data_prep did not apply the answered filters: ${filtered}`);
      await shot("filters-answered");
    }
    await page.click("#approve");
    answered.push(id);
    if (checkpoint === 1) {
      // A reload mid-run: the stream resumes, and the answered checkpoint is never asked again.
      await page.reload();
      await page.waitForSelector("#tasks .task", { timeout: 60000 });
      const shown = await page.isVisible("#checkpoint");
      if (shown && answered.includes(await page.getAttribute("#checkpoint", "data-checkpoint"))) {
        fail("the answered checkpoint was shown again after a reload");
      }
      await shot("reload-mid-run");
    }
  }
  await waitFor(async () => (await page.textContent("#thread-status"))?.includes("status done"), "the run to finish", 300);
  const progress = await page.getAttribute("#progress", "value");
  const total = await page.getAttribute("#progress", "max");
  if (progress === null || progress !== total) fail(`progress ${progress} of ${total} at the end`);
  await page.waitForSelector("#artifacts a", { timeout: 30000 });
  const links = await page.$$eval("#artifacts a", (as) => as.map((a) => a.getAttribute("href")));
  const report = links.find((href) => href && href.endsWith(".html"));
  if (!report) fail(`no HTML report among the artifacts: ${links.join(", ")}`);
  await shot("done");
  const reportPage = await browser.newPage();
  const response = await reportPage.goto(new URL(report, base).toString());
  if (!response || !response.ok()) fail(`the report answered ${response?.status()}`);
  await reportPage.screenshot({ path: join(outDir, `${String(++step).padStart(2, "0")}-report.png`), fullPage: true });
  const runThread = new URL(page.url()).hash.replace("#thread=", "");
  const datasets = await (await fetch(new URL(`threads/${runThread}/state`, base))).json();
  if (!String(datasets.values.dataset_path).startsWith(join(work, "datasets"))) fail(`the example run read ${datasets.values.dataset_path}`);
  // An uploaded file still starts an analysis, on the graph picked with the example: the reloads
  // above kept the form's choice.
  await page.selectOption("#example", "");
  if ((await page.inputValue("#assistant")) !== "friction") fail("a reload lost the graph picked with the example");
  await page.setInputFiles("#file", data);
  await page.click("#start-button");
  await page.waitForFunction((old) => !location.hash.includes(old), runThread, { timeout: 60000 });
  if (!(await page.textContent("#thread-title"))?.startsWith("friction ·")) fail("the upload did not start a friction thread");
  await page.waitForFunction(() => !document.querySelector("#checkpoint").hidden ||
    document.querySelector("#thread-status").textContent.includes("status failed"), null, { timeout: 180000 });
  if (await page.isHidden("#checkpoint")) fail(`the upload's run failed: ${await page.textContent("#thread-status")}`);
  const uploaded = await (await fetch(new URL(`threads/${new URL(page.url()).hash.replace("#thread=", "")}/state`, base))).json();
  if (!String(uploaded.values.dataset_path).endsWith("/web-test-contacts.csv")) fail(`the upload's run read ${uploaded.values.dataset_path}`);
  await shot("upload-started");
  if (pageErrors.length > 0) fail(`errors in the page: ${pageErrors.join("; ")}`);
  console.log(`browser test passed: ${step} screenshots in ${outDir}`);
} finally {
  await browser?.close();
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(work, { recursive: true, force: true });
}
