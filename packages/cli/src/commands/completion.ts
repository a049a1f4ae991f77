import { Argument, type Command } from 'commander';
import type { CommandRunner } from '../runner.ts';

interface Entry {
  /** The command's words after `rhizome` ('' for the top level). */
  path: string;
  words: string[];
}

/** What can follow each command: its subcommands and its long options, read off the command tree itself. */
function entries(command: Command, prefix: string[] = []): Entry[] {
  const visible = command.commands.filter((sub) => sub.name() !== 'help');
  const words = [
    ...visible.map((sub) => sub.name()),
    ...command.options.map((option) => option.long).filter((long): long is string => Boolean(long)),
  ];
  return [{ path: prefix.join(' '), words }, ...visible.flatMap((sub) => entries(sub, [...prefix, sub.name()]))];
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

function bash(table: Entry[]): string {
  const cases = table.map((entry) => `    ${quote(entry.path)}) words=${quote(entry.words.join(' '))} ;;`).join('\n');
  return `# rhizome completion for bash: eval "$(rhizome completion bash)"
_rhizome() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word words=""
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    [[ "$word" == -* ]] || path="\${path:+$path }$word"
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _rhizome rhizome
`;
}

function zsh(table: Entry[]): string {
  const cases = table
    .map((entry) => `    ${quote(entry.path)}) candidates=(${entry.words.map(quote).join(' ')}) ;;`)
    .join('\n');
  return `#compdef rhizome
# rhizome completion for zsh: eval "$(rhizome completion zsh)"
_rhizome() {
  local -a before candidates
  before=(\${\${words[2,CURRENT-1]}:#-*})
  case "\${(j: :)before}" in
${cases}
  esac
  compadd -a candidates
  _files
}
compdef _rhizome rhizome
`;
}

function fish(table: Entry[]): string {
  const lines = ['# rhizome completion for fish: rhizome completion fish | source'];
  for (const entry of table) {
    const condition = entry.path
      ? `__fish_seen_subcommand_from ${entry.path.split(' ').at(-1)}`
      : '__fish_use_subcommand';
    for (const word of entry.words) {
      lines.push(
        word.startsWith('--')
          ? `complete -c rhizome -n ${quote(condition)} -l ${word.slice(2)}`
          : `complete -c rhizome -f -n ${quote(condition)} -a ${quote(word)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const shells = { bash, zsh, fish };

export function registerCompletion(program: Command, runner: CommandRunner): void {
  program
    .command('completion')
    .alias('completions')
    .description('Print the shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>').choices(Object.keys(shells)))
    .action(
      runner.local(async (shell: keyof typeof shells) => {
        runner.io.write(shells[shell](entries(program)));
        return 0;
      }),
    );
}
