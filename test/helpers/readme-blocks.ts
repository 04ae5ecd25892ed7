// The README's shell examples as the README test runs them: every ```sh fence, in document order,
// with its line number and, when the line before the fence says so, the reason it is not run.
export interface ShellBlock {
  line: number; // 1-based line of the opening fence
  code: string;
  skip?: string; // the reason, when marked `<!-- not run by the README test: reason -->`
}

// A marker that cannot be read (no reason, or a misspelt form) is an error, not a block quietly run
// or quietly skipped.
export interface Parsed {
  blocks: ShellBlock[];
  errors: string[];
}

const SKIP = /^<!--\s*not run by the README test\s*(?::\s*(.*?))?\s*-->$/;

export function shellBlocks(markdown: string): Parsed {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  const errors: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    // Fences inside list items are indented: the indent is the block's, not the code's.
    const open = /^( *)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const fence = open[2]!;
    let end = i + 1;
    while (end < lines.length && !(lines[end]!.trimStart().startsWith(fence) && lines[end]!.trimStart().slice(fence.length).trim() === ''))
      end++;
    if (end === lines.length) errors.push(`line ${i + 1}: a fence that is never closed`);
    const lang = open[3]!;
    const before = (lines[i - 1] ?? '').trim();
    if (lang === 'sh' || lang === 'bash' || lang === 'shell') {
      const block: ShellBlock = {
        line: i + 1,
        code: lines
          .slice(i + 1, end)
          .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
          .join('\n'),
      };
      const skip = SKIP.exec(before);
      if (skip) {
        if (skip[1]) block.skip = skip[1];
        else errors.push(`line ${i}: a "not run by the README test" comment without a reason`);
      } else if (/^<!--.*not run/i.test(before)) {
        errors.push(`line ${i}: "${before}" is not the form <!-- not run by the README test: reason -->`);
      }
      if (lang !== 'sh') errors.push(`line ${i + 1}: shell examples are fenced \`\`\`sh (found \`\`\`${lang})`);
      blocks.push(block);
    } else if (SKIP.test(before)) {
      errors.push(`line ${i}: a "not run" comment before a \`\`\`${lang || '(plain)'} fence, which is never run anyway`);
    }
    i = end;
  }
  return { blocks, errors };
}
