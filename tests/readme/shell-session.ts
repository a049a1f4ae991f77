import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';

export interface BlockRun {
  exitCode: number | null;
  /** stdout and stderr interleaved, as a terminal shows them. */
  output: string;
  timedOut: boolean;
}

/**
 * Runs shell snippets one after another as if typed into one terminal: each in its own `bash` with
 * `set -euo pipefail` (so a failing command, a failing pipe or an undefined variable fails the snippet),
 * and the variables and functions a snippet defines carried over to the next ones through a state file.
 */
export class ShellSession {
  private readonly stateFile: string;
  private readonly baseline: string;

  constructor(
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.stateFile = path.join(cwd, '.shell-session-state');
    // Variables a fresh shell has by itself are not the snippets' to carry.
    this.baseline = execFileSync('bash', ['--noprofile', '--norc', '-c', 'compgen -v'], { cwd, env, encoding: 'utf8' })
      .split('\n')
      .join(' ');
  }

  run(code: string, timeoutMs: number): Promise<BlockRun> {
    const script = [
      'set -euo pipefail',
      `if [ -s "$__session_state" ]; then source "$__session_state"; fi`,
      code,
      'for __session_name in $(compgen -v); do',
      '  case " $__session_baseline " in *" $__session_name "*) continue ;; esac',
      '  case "$__session_name" in __session_*|BASH*|FUNCNAME|PIPESTATUS|_) continue ;; esac',
      '  declare -p "$__session_name"',
      'done > "$__session_state.next"',
      'declare -f >> "$__session_state.next"',
      'mv "$__session_state.next" "$__session_state"',
    ].join('\n');
    const child = spawn('bash', ['--noprofile', '--norc', '-c', script], {
      cwd: this.cwd,
      env: { ...this.env, __session_state: this.stateFile, __session_baseline: this.baseline },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout also ends the commands it started.
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, timeoutMs);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (exitCode) => {
        clearTimeout(timer);
        resolve({ exitCode, output, timedOut });
      });
    });
  }
}
