/**
 * The commands a document asks its reader to type: every line of its ```sh blocks (between two
 * headings, when given), with the exit code its `# exit N` comment names (0 when it names none),
 * and the fragments of output it quotes in ```text blocks (… elides). Shared by the tests that run
 * the README and the tutorial as written (src/package.test.ts) and check their shape.
 */
export interface ShellCommand {
  /** The line as typed, its comment removed. */
  command: string;
  /** The exit code the comment promises. */
  exit: number;
}

/** The part of `markdown` from the heading `from` (a whole line, e.g. '## In your project') up to the next heading of the same level. */
export function section(markdown: string, from: string): string {
  const start = markdown.indexOf(`\n${from}\n`);
  if (start < 0) throw new Error(`no heading "${from}"`);
  const level = /^#+/.exec(from)?.[0] ?? '##';
  const rest = markdown.slice(start + from.length + 2);
  const end = rest.search(new RegExp(`\\n${level} `));
  return end < 0 ? rest : rest.slice(0, end);
}

export function shellCommands(markdown: string): ShellCommand[] {
  return [...markdown.matchAll(/```sh\n([\s\S]+?)```/g)].flatMap((m) =>
    (m[1] as string).split('\n').filter((line) => line.trim().length > 0).map((line) => {
      const exit = /#\s*exit (\d)\b/.exec(line);
      return { command: line.replace(/\s+#.*$/, '').trim(), exit: exit ? Number(exit[1]) : 0 };
    }),
  );
}

export function quotedFragments(markdown: string): string[] {
  return (/```text\n([\s\S]+?)\n```/.exec(markdown)?.[1] ?? '').split(/…|\n/).map((f) => f.trim()).filter((f) => f.length > 0);
}

/** The README's CI recipe (its ```yaml block): the shards' check and the verdict's merge, what each shard uploads and where the verdict job downloads it. */
export interface CiRecipe {
  check: string;
  merge: string;
  /** The upload step's paths, from the workspace (`${{ matrix.shard }}` as written). */
  uploaded: string[];
  /** The download step's path ('.' when it names none: the workspace). */
  downloadedTo: string;
}

export function ciRecipe(markdown: string): CiRecipe {
  const yaml = /```yaml\n([\s\S]+?)```/.exec(markdown)?.[1] ?? '';
  const runs = [...yaml.matchAll(/- run: (npx durasim .+?)(\s+#.*)?$/gm)].map((m) => m[1] as string);
  const upload = /uses: actions\/upload-artifact@\S+\n([\s\S]*?)(?=\n\s*- |\n\s*\w+:\n\s*needs)/.exec(yaml)?.[1] ?? '';
  // path: a scalar, or a block (`path: |`) of one path a line.
  const block = /path: \|[^\n]*\n((?:\s{12,}\S.*\n?)+)/.exec(upload)?.[1];
  const uploaded = block !== undefined ? block.split('\n').map((l) => l.trim()).filter((l) => l.length > 0) : [/path: ([^,}\s]+)/.exec(upload)?.[1] ?? ''];
  const download = /uses: actions\/download-artifact@\S+\n\s+with: \{([^}]*)\}/.exec(yaml)?.[1] ?? '';
  return { check: runs[0] ?? '', merge: runs[1] ?? '', uploaded, downloadedTo: /path: ([^,}\s]+)/.exec(download)?.[1] ?? '.' };
}
