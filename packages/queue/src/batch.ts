/**
 * Gathers the calls made in one turn of the microtask queue and runs them as one batch: under load
 * many enqueues or completions arrive together, and one statement or script for all of them costs far
 * less than a round trip each. A lone call runs alone, without delay.
 * `run` returns one result per input, an Error for an input that failed on its own.
 */
export class MicroBatch<In, Out> {
  private pending: { input: In; resolve: (value: Out) => void; reject: (error: unknown) => void }[] = [];

  constructor(
    private readonly run: (inputs: In[]) => Promise<(Out | Error)[]>,
    private readonly maxSize: number,
  ) {}

  push(input: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) queueMicrotask(() => void this.flush());
      this.pending.push({ input, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const slices: (typeof batch)[] = [];
    for (let start = 0; start < batch.length; start += this.maxSize)
      slices.push(batch.slice(start, start + this.maxSize));
    await Promise.all(
      slices.map(async (slice) => {
        try {
          const results = await this.run(slice.map((entry) => entry.input));
          results.forEach((result, index) =>
            result instanceof Error ? slice[index].reject(result) : slice[index].resolve(result),
          );
        } catch (error) {
          for (const entry of slice) entry.reject(error);
        }
      }),
    );
  }
}
