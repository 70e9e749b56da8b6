// Renders a graph's state (seed 003 §1) with no knowledge of which graph produced it: plan_tasks and
// their sub_agents, the step progress bar, the reasoning stream, the messages and any chart spec.

import { clear, el } from "./dom";

export type State = Record<string, unknown>;

interface Task {
  id?: string;
  title?: string;
  name?: string;
  status?: string;
  sub_agents?: Task[];
}

interface Reasoning {
  step_name?: string;
  step_text?: string;
  verbose?: unknown;
}

const STATUSES = new Set(["todo", "in_progress", "done", "blocked"]);

function statusOf(task: Task): string {
  return typeof task.status === "string" && STATUSES.has(task.status) ? task.status : "todo";
}

function taskItem(task: Task): HTMLLIElement {
  const status = statusOf(task);
  const item = el(
    "li",
    { class: `task ${status}`, "data-status": status },
    el("span", { class: "badge" }, status.replace("_", " ")),
    " ",
    task.title ?? task.name ?? task.id ?? "",
  );
  if (Array.isArray(task.sub_agents) && task.sub_agents.length > 0) {
    item.append(el("ul", { class: "sub-agents" }, ...task.sub_agents.map(taskItem)));
  }
  return item;
}

export function renderTasks(target: Element, state: State): void {
  clear(target);
  const tasks = Array.isArray(state.plan_tasks) ? (state.plan_tasks as Task[]) : [];
  const total = Number(state.plan_steps_total ?? 0);
  const done = Number(state.plan_steps_completed ?? 0);
  if (total > 0) {
    const bar = el("progress", { id: "progress", max: String(total), value: String(Math.min(done, total)) });
    target.append(el("div", { class: "progress" }, bar, ` ${Math.min(done, total)} of ${total} steps`));
  }
  if (tasks.length > 0) target.append(el("ul", { class: "tasks" }, ...tasks.map(taskItem)));
}

// Reasoning entries are appended; only the entries not shown yet are added, so a long stream never
// re-renders what the reader is looking at.
export function renderReasoning(target: Element, state: State): void {
  const entries = Array.isArray(state.reasoning) ? (state.reasoning as Reasoning[]) : [];
  if (entries.length < target.childElementCount) clear(target);
  for (let i = target.childElementCount; i < entries.length; ++i) {
    const entry = entries[i];
    target.append(
      el("li", {}, el("strong", {}, entry.step_name ?? "step"), " ", entry.step_text ?? ""),
    );
  }
}

// Every Vega-Lite spec anywhere in the state (an object whose $schema names vega-lite).
export function chartSpecs(state: State): object[] {
  const specs: object[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      value.forEach((item) => visit(item, depth + 1));
      return;
    }
    const schema = (value as { $schema?: unknown }).$schema;
    if (typeof schema === "string" && schema.includes("vega-lite")) {
      specs.push(value);
      return;
    }
    Object.values(value).forEach((item) => visit(item, depth + 1));
  };
  visit(state, 0);
  return specs;
}

interface Message {
  role?: string;
  type?: string;
  content?: unknown;
}

export function renderMessages(target: Element, state: State): void {
  clear(target);
  const messages = Array.isArray(state.messages) ? (state.messages as Message[]) : [];
  for (const message of messages) {
    const role = message.role ?? message.type ?? "assistant";
    const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    target.append(el("div", { class: `message ${role}` }, el("span", { class: "role" }, role), " ", text));
  }
}
