// Server-sent events read from a fetch body, so a request can carry headers (API key, Last-Event-ID).
// Yields one event per blank-line-terminated block; comments (": ...") are skipped.

export interface SseEvent {
  id: string;
  event: string;
  data: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let current: SseEvent = { id: "", event: "message", data: "" };
  let hasData = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (hasData) yield current;
        current = { id: current.id, event: "message", data: "" };
        hasData = false;
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let text = colon < 0 ? "" : line.slice(colon + 1);
      if (text.startsWith(" ")) text = text.slice(1);
      if (field === "id") current.id = text;
      else if (field === "event") current.event = text;
      else if (field === "data") {
        current.data = hasData ? `${current.data}\n${text}` : text;
        hasData = true;
      }
    }
  }
}
