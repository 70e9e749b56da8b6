// The page: start an analysis, follow its run live, answer its checkpoints, read its artifacts.
// Everything shown comes from the thread's state and the run's event log; a reload resumes the
// stream after the last event seen and asks only the checkpoint the server says is open now.

import "./style.css";
import embed from "vega-embed";
import { api, ApiError, Artifact, Assistant, Example, followRun, Thread, ThreadState } from "./api";
import { clear, el } from "./dom";
import { chartSpecs, renderMessages, renderReasoning, renderTasks, State } from "./state_view";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

let assistants: Assistant[] = [];
let examples: Example[] = [];
let currentThread = "";
let currentAssistant = "";
let stream: AbortController | null = null;
let shownCharts = "";

function remember(key: string, value: string): void {
  sessionStorage.setItem(`planfirst.${key}`, value);
}
function recall(key: string): string {
  return sessionStorage.getItem(`planfirst.${key}`) ?? "";
}

function describe(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

// The input state an assistant starts from, in the keys its metadata names (metadata.input); a
// question for "messages" goes in as a human message.
function inputFor(assistant: Assistant | undefined, dataset: string, question: string): State {
  const fields = (assistant as { metadata?: { input?: Record<string, string> } } | undefined)?.metadata?.input ?? {};
  const input: State = {};
  if (dataset !== "" && fields.dataset) input[fields.dataset] = dataset;
  if (question !== "" && fields.question) {
    input[fields.question] = fields.question === "messages" ? [{ role: "human", content: question }] : question;
  }
  return input;
}

async function loadAssistants(): Promise<void> {
  assistants = await api.assistants();
  const select = $<HTMLSelectElement>("assistant");
  clear(select);
  for (const assistant of assistants) {
    select.append(el("option", { value: assistant.assistant_id }, assistant.name ?? assistant.assistant_id));
  }
  const describeSelected = () => {
    const chosen = assistants.find((a) => a.assistant_id === select.value);
    $("assistant-description").textContent = chosen?.description ?? "";
  };
  restoreChoice(select, "form.assistant");
  select.onchange = () => {
    remember("form.assistant", select.value);
    describeSelected();
  };
  describeSelected();
}

// A reload rebuilds the form's lists; the choice made before it comes back when still offered, so a
// reload mid-run does not quietly switch the next analysis to the first graph.
function restoreChoice(select: HTMLSelectElement, key: string): void {
  const saved = recall(key);
  const option = Array.from(select.options).find((o) => o.value === saved);
  if (option && !option.disabled) select.value = saved;
}

// The server's bundled examples: the ones present can be picked instead of an upload (picking one
// also picks the graph it is made for); a missing one is listed disabled, with how to get it.
async function loadExamples(): Promise<void> {
  const select = $<HTMLSelectElement>("example");
  try {
    examples = await api.examples();
  } catch (error) {
    $("example-hint").textContent = describe(error);
    return;
  }
  for (const example of examples) {
    const label = `${example.name}${example.assistant_id ? ` (${example.assistant_id})` : ""}`;
    const option = el("option", { value: example.name }, example.available ? label : `${label}: missing`);
    option.disabled = !example.available;
    select.append(option);
  }
  $("example-hint").textContent = examples
    .filter((example) => !example.available && example.how_to_get)
    .map((example) => `${example.name} is missing: ${example.how_to_get}.`)
    .join(" ");
  restoreChoice(select, "form.example");
  select.onchange = () => {
    remember("form.example", select.value);
    const chosen = examples.find((example) => example.name === select.value);
    const graph = $<HTMLSelectElement>("assistant");
    if (chosen?.assistant_id && assistants.some((a) => a.assistant_id === chosen.assistant_id)) {
      graph.value = chosen.assistant_id;
      graph.dispatchEvent(new Event("change"));
    }
  };
}

async function loadThreads(): Promise<Thread[]> {
  const list = $("threads");
  clear(list);
  const threads = await api.threads();
  for (const thread of threads) {
    const item = el(
      "li",
      { class: thread.thread_id === currentThread ? "current" : "", "data-thread": thread.thread_id },
      `${thread.assistant_id ?? ""} · ${thread.status ?? ""} · ${thread.thread_id.slice(0, 8)}`,
    );
    item.onclick = () => void openThread(thread.thread_id, thread.assistant_id ?? "");
    list.append(item);
  }
  return threads;
}

// Charts: every Vega-Lite spec in the state, then every `.vl.json` artifact the run wrote.
async function renderCharts(state: State, artifacts: Artifact[]): Promise<void> {
  const specs: object[] = chartSpecs(state);
  const files = artifacts.filter((artifact) => artifact.path.endsWith(".vl.json"));
  const key = JSON.stringify([specs, files]);
  if (key === shownCharts) return;
  shownCharts = key;
  for (const file of files) {
    const response = await fetch(api.artifactUrl(currentThread, file.path));
    if (response.ok) specs.push((await response.json()) as object);
  }
  const target = $("charts");
  clear(target);
  for (const spec of specs) {
    const holder = el("div", { class: "chart" });
    target.append(holder);
    await embed(holder, spec as never, { actions: false });
  }
}

async function renderArtifacts(): Promise<Artifact[]> {
  const list = $("artifacts");
  clear(list);
  try {
    const artifacts = await api.artifacts(currentThread);
    for (const artifact of artifacts) {
      const url = api.artifactUrl(currentThread, artifact.path);
      const link = el("a", { href: url, target: "_blank", rel: "noopener" }, artifact.path);
      list.append(el("li", {}, link, ` ${artifact.bytes} bytes`));
    }
    return artifacts;
  } catch (error) {
    list.append(el("li", { class: "error" }, describe(error)));
    return [];
  }
}

// The checkpoint the server reports open at the thread's head; one this page already answered stays
// hidden while its resume is starting. A graph that names its open prompt's checkpoint in the state
// (seed 003 §7.3: checkpoint_id) is asked only when that names the head's interrupt.
function renderCheckpoint(head: ThreadState): void {
  const box = $("checkpoint");
  const open = head.status === "interrupted" ? (head.interrupts ?? [])[0] : undefined;
  const id = open?.checkpoint_id ?? "";
  const named = head.values.checkpoint_id;
  const stale = typeof named === "string" && named !== id;
  if (!open || stale || recall(`answered.${currentThread}`) === id) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.dataset.checkpoint = id;
  $("checkpoint-message").textContent = open.message ?? "";
  $("checkpoint-prompt").textContent = open.prompt ?? "";
}

function renderState(state: State): void {
  renderTasks($("tasks"), state);
  renderReasoning($("reasoning"), state);
  renderMessages($("messages"), state);
}

async function refresh(): Promise<ThreadState> {
  const head = await api.state(currentThread);
  renderState(head.values);
  renderCheckpoint(head);
  const last = typeof head.values.last_completed_node === "string" ? head.values.last_completed_node : head.last_completed_node;
  const failure = head.metadata?.error;
  $("thread-status").textContent =
    `status ${head.status ?? "?"}` +
    (last ? ` · last completed: ${last}` : "") +
    (failure ? ` · ${failure.where ? `${failure.where}: ` : ""}${failure.message} (${failure.code})` : "");
  await renderCharts(head.values, await renderArtifacts());
  return head;
}

async function follow(runId: string): Promise<void> {
  stream?.abort();
  stream = new AbortController();
  const last = recall(`run.${runId}.last`);
  $("connection").textContent = "live";
  try {
    await followRun(
      currentThread,
      runId,
      last,
      (event) => {
        if (event.id !== "") remember(`run.${runId}.last`, event.id);
        if (event.event === "values") renderState(JSON.parse(event.data) as State);
      },
      stream.signal,
    );
  } finally {
    $("connection").textContent = "";
  }
  await refresh();
  await loadThreads();
}

async function openThread(threadId: string, assistantId: string): Promise<void> {
  stream?.abort();
  currentThread = threadId;
  currentAssistant = assistantId;
  shownCharts = "";
  clear($("reasoning"));
  location.hash = `thread=${threadId}`;
  $("thread").hidden = false;
  $("thread-title").textContent = `${assistantId} · ${threadId}`;
  await refresh();
  await loadThreads();
  const runs = await api.runs(threadId);
  const active = runs.find((run) => run.status === "pending" || run.status === "running");
  if (active) await follow(active.run_id);
}

async function startAnalysis(event: Event): Promise<void> {
  event.preventDefault();
  $("start-error").textContent = "";
  try {
    const assistantId = $<HTMLSelectElement>("assistant").value;
    const example = $<HTMLSelectElement>("example").value;
    const file = $<HTMLInputElement>("file").files?.[0];
    if (example === "" && !file) throw new Error("pick an example or choose a file to upload");
    // An example becomes a dataset of the server's own, as an upload does.
    const dataset = example !== "" ? (await api.useExample(example)).path : (await api.upload(file as File)).path;
    const question = $<HTMLInputElement>("question").value.trim();
    const assistant = assistants.find((a) => a.assistant_id === assistantId);
    const thread = await api.createThread(assistantId);
    currentThread = thread.thread_id;
    const run = await api.start(thread.thread_id, assistantId, inputFor(assistant, dataset, question));
    await openThread(thread.thread_id, assistantId);
    await follow(run.run_id);
  } catch (error) {
    $("start-error").textContent = describe(error);
  }
}

// Sends the answer to the open checkpoint. One the graph refuses (a bad field of a structured answer)
// comes back as an error naming the field; the checkpoint is still open, so it is shown again with it.
async function answerCheckpoint(answer: string): Promise<void> {
  const id = $("checkpoint").dataset.checkpoint ?? "";
  $("checkpoint-error").textContent = "";
  $("checkpoint").hidden = true;
  remember(`answered.${currentThread}`, id);
  try {
    const run = await api.resume(currentThread, id, answer);
    $<HTMLTextAreaElement>("checkpoint-answer").value = "";
    await follow(run.run_id);
  } catch (error) {
    remember(`answered.${currentThread}`, "");
    await refresh();
    $("checkpoint-error").textContent =
      error instanceof ApiError && error.where ? `${error.where}: ${error.message}` : describe(error);
  }
}

async function ask(event: Event): Promise<void> {
  event.preventDefault();
  const input = $<HTMLInputElement>("chat-input");
  const question = input.value.trim();
  if (question === "" || currentThread === "") return;
  try {
    const assistant = assistants.find((a) => a.assistant_id === currentAssistant);
    const run = await api.start(currentThread, currentAssistant, inputFor(assistant, "", question));
    input.value = "";
    await follow(run.run_id);
  } catch (error) {
    $("thread-status").textContent = describe(error);
  }
}

async function main(): Promise<void> {
  $("start").addEventListener("submit", (event) => void startAnalysis(event));
  $("chat").addEventListener("submit", (event) => void ask(event));
  $("approve").onclick = () => void answerCheckpoint("approve");
  $("answer").onclick = () => void answerCheckpoint($<HTMLTextAreaElement>("checkpoint-answer").value.trim() || "approve");
  await loadAssistants();
  await loadExamples();
  const threads = await loadThreads();
  const match = /thread=([^&]+)/.exec(location.hash);
  if (match) {
    const thread = threads.find((t) => t.thread_id === match[1]);
    await openThread(match[1], thread?.assistant_id ?? "");
  }
}

void main();
