/**
 * Reads a chat's event stream as a browser does (used by the chat tests and by `bench:chat`, so it
 * depends on nothing but fetch).
 */

export interface ChatEventFrame {
  type: string;
  [key: string]: unknown;
}

export interface EventRead {
  status: number;
  contentType: string | null;
  events: ChatEventFrame[];
  /** True when the server ended the stream (rather than the reader stopping early). */
  ended: boolean;
}

/**
 * Reads `GET /chats/{id}/events` frame by frame until the server closes it, or until `stopAfter` says
 * so (then the client disconnects, as a closed browser tab does). `onOpen` runs once the response
 * headers arrived: the server is subscribed by then, so nothing published afterwards is missed.
 */
export async function readEvents(
  server: { base: string },
  cookie: string,
  chatId: string,
  stopAfter?: (event: ChatEventFrame) => boolean,
  timeoutMs = 30_000,
  onOpen?: () => Promise<void>,
): Promise<EventRead> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const response = await fetch(`${server.base}/chats/${chatId}/events`, { headers: { cookie }, signal: abort.signal });
  await onOpen?.();
  const events: ChatEventFrame[] = [];
  let ended = false;
  try {
    if (!response.body || response.status !== 200)
      return { status: response.status, contentType: response.headers.get('content-type'), events, ended: true };
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      let stop = false;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data) as ChatEventFrame;
        events.push(event);
        if (stopAfter?.(event)) stop = true;
      }
      if (stop) {
        abort.abort();
        break;
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return { status: response.status, contentType: response.headers.get('content-type'), events, ended };
}
