// The serve API (assets/server/openapi.json) as typed calls. Errors carry the server's JSON error
// code and message; streams resume after the last event seen (Last-Event-ID).

import { readSse, SseEvent } from "./sse";
import type { State } from "./state_view";

export interface Assistant {
  assistant_id: string;
  graph_id?: string;
  name?: string;
  description?: string;
}

export interface Thread {
  thread_id: string;
  assistant_id?: string;
  status?: string;
  updated_at?: string;
  metadata?: Record<string, unknown>;
  values?: State;
}

export interface Interrupt {
  node?: string;
  message?: string;
  prompt?: string;
  checkpoint_id?: string;
}

export interface ThreadState {
  values: State;
  checkpoint_id?: string;
  status?: string;
  last_completed_node?: string;
  interrupts?: Interrupt[];
  metadata?: { error?: { code: string; message: string; where?: string } };  // error: why a failed run stopped
}

export interface Run {
  run_id: string;
  thread_id: string;
  status: string;
}

export interface Dataset {
  dataset_id: string;
  name: string;
  path: string;
  bytes: number;
}

export interface Example {
  name: string;
  available: boolean;
  assistant_id?: string;
  description?: string;
  bytes?: number;
  how_to_get?: string;
}

export interface Artifact {
  path: string;
  bytes: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly where: string = "",
  ) {
    super(message);
  }
}

function apiKey(): string | null {
  return localStorage.getItem("planfirst.api_key");
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = apiKey();
  return key ? { ...extra, "X-Api-Key": key } : extra;
}

async function call<T>(method: string, path: string, body?: unknown, raw?: Blob): Promise<T> {
  const init: RequestInit = { method, headers: headers() };
  if (raw !== undefined) {
    init.body = raw;
    init.headers = headers({ "Content-Type": "application/octet-stream" });
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = headers({ "Content-Type": "application/json" });
  }
  const response = await fetch(path, init);
  const text = await response.text();
  const json = text === "" ? {} : JSON.parse(text);
  if (!response.ok) {
    const error = json.error ?? {};
    throw new ApiError(response.status, error.code ?? "http_error", error.message ?? response.statusText, error.where ?? "");
  }
  return json as T;
}

const enc = encodeURIComponent;

export const api = {
  assistants: () => call<Assistant[]>("POST", "/assistants/search", {}),
  threads: () => call<Thread[]>("POST", "/threads/search", { limit: 50 }),
  createThread: (assistantId: string) => call<Thread>("POST", "/threads", { assistant_id: assistantId }),
  state: (threadId: string) => call<ThreadState>("GET", `/threads/${enc(threadId)}/state`),
  runs: (threadId: string) => call<Run[]>("GET", `/threads/${enc(threadId)}/runs`),
  start: (threadId: string, assistantId: string, input: State) =>
    call<Run>("POST", `/threads/${enc(threadId)}/runs`, {
      assistant_id: assistantId,
      input,
      multitask_strategy: "reject",
    }),
  resume: (threadId: string, checkpointId: string, answer: unknown) =>
    call<Run>("POST", `/threads/${enc(threadId)}/runs`, { command: { resume: answer }, checkpoint_id: checkpointId }),
  examples: () => call<Example[]>("GET", "/examples"),
  useExample: (name: string) => call<Dataset>("POST", `/examples/${enc(name)}/dataset`),
  upload: (file: File) => call<Dataset>("POST", `/datasets?name=${enc(file.name)}`, undefined, file),
  artifacts: (threadId: string) => call<Artifact[]>("GET", `/threads/${enc(threadId)}/artifacts`),
  artifactUrl: (threadId: string, path: string) =>
    `/threads/${enc(threadId)}/artifacts/${path.split("/").map(enc).join("/")}`,
};

// Streams a run's events until its `end` event, reconnecting after a dropped connection from the
// last event received; `lastEventId` lets a reloaded page continue where it stopped.
export async function followRun(
  threadId: string,
  runId: string,
  lastEventId: string,
  onEvent: (event: SseEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let last = lastEventId;
  for (let attempt = 0; !signal.aborted; ++attempt) {
    try {
      const extra: Record<string, string> = { Accept: "text/event-stream" };
      if (last !== "") extra["Last-Event-ID"] = last;
      const response = await fetch(
        `/threads/${enc(threadId)}/runs/${enc(runId)}/stream?stream_mode=values,custom`,
        { headers: headers(extra), signal },
      );
      if (!response.ok || response.body === null) throw new ApiError(response.status, "stream", response.statusText);
      attempt = 0;
      for await (const event of readSse(response.body)) {
        if (event.id !== "") last = event.id;
        onEvent(event);
        if (event.event === "end") return;
      }
    } catch (error) {
      if (signal.aborted) return;
      // A refusal (unknown run, bad key, bad request) does not change by asking again.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, 5000)));
  }
}
