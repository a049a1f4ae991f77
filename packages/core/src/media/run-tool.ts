import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';

/** A command-line tool the loaders drive (tesseract, pdftoppm, ffmpeg, pocketsphinx) that is not installed. */
export class ToolMissingError extends Error {
  constructor(
    readonly tool: string,
    readonly debianPackage: string,
  ) {
    super(`${tool} is not installed (Debian package ${debianPackage}; tools/install-system-deps installs it)`);
    this.name = 'ToolMissingError';
  }
}

/** A tool that exited with an error, ran past its time or wrote more than it may. */
export class ToolFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolFailedError';
  }
}

export interface ToolRun {
  tool: string;
  debianPackage: string;
  args: string[];
  signal: AbortSignal;
  timeoutMs: number;
  /** Most bytes kept of its standard output; more fails the run. */
  maxOutputBytes: number;
}

const stderrKept = 4096;

/**
 * Runs one tool to completion and gives its standard output. The process is killed (SIGKILL) when the
 * signal aborts or the time runs out, so a stuck or hostile input cannot hold a worker.
 */
export function runTool(run: ToolRun): Promise<Buffer> {
  run.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(run.tool, run.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    let outputBytes = 0;
    let stderr = '';
    let failure: Error | null = null;
    const stop = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(run.signal.reason as Error);
    run.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () =>
        stop(new ToolFailedError(`${run.tool} ran longer than ${Math.round(run.timeoutMs / 1000)} s and was stopped`)),
      run.timeoutMs,
    );
    child.stdout.on('data', (data: Buffer) => {
      outputBytes += data.length;
      if (outputBytes > run.maxOutputBytes)
        stop(new ToolFailedError(`${run.tool} wrote more than ${run.maxOutputBytes} bytes and was stopped`));
      else output.push(data);
    });
    child.stderr.on('data', (data: Buffer) => {
      if (stderr.length < stderrKept) stderr += data.toString('utf8').slice(0, stderrKept - stderr.length);
    });
    const finish = (error: Error | null) => {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(Buffer.concat(output));
    };
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(error.code === 'ENOENT' ? new ToolMissingError(run.tool, run.debianPackage) : error),
    );
    child.on('close', (code, signal) => {
      if (failure) return finish(failure);
      if (code === 0) return finish(null);
      const reason = lastLine(stderr) ?? (signal ? `killed by ${signal}` : `exit code ${code}`);
      finish(new ToolFailedError(`${run.tool} failed: ${reason}`));
    });
  });
}

function lastLine(text: string): string | null {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.at(-1) ?? null;
}

/** Whether an executable of this name is on the PATH. */
export async function onPath(tool: string): Promise<boolean> {
  for (const directory of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const found = await access(path.join(directory, tool), constants.X_OK).then(
      () => true,
      () => false,
    );
    if (found) return true;
  }
  return false;
}
