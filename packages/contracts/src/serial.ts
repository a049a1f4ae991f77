/**
 * Runs the work handed to it one piece after another, in the order given: a piece starts once the one
 * before has settled, whether it succeeded or failed (a failure reaches only its own caller).
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work);
    this.#tail = run.catch(() => undefined);
    return run;
  }
}
