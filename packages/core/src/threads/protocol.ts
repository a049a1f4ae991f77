/** Messages between a ThreadClient and the thread it runs (see serve.ts). */
export interface ThreadRequest<Input> {
  id: number;
  input: Input;
}

/** A failure crosses the thread boundary as data: its class name, message and (for LlmError) kind. */
export interface ThreadFailure {
  name: string;
  message: string;
  kind?: string;
}

/** The answer to a request; before it, a handler may send parts of its result (`part`), in order. */
export type ThreadResponse<Output, Part = never> =
  | { id: number; ok: true; value: Output }
  | { id: number; ok: false; failure: ThreadFailure }
  | { id: number; part: Part };
