/**
 * Imports run one way (docs/architecture: commands -> (api, output, scoring,
 * import, store, schema) -> (contract, util)): this test reads every module
 * under src/, collects its relative imports (static, type-only, re-exports and
 * dynamic import() alike: a type import still ties two modules together), and
 * fails on any import cycle and on any module outside src/commands/ (other than
 * src/cli.ts, which builds the command tree) importing from src/commands/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(join(dir, d.name)) : /\.ts$/.test(d.name) && !/\.d\.ts$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** Relative module specifiers of a source file: `import ... from`, `export ... from`, `import('...')`, `import '...'`. */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.[^'"]+)\1/gm)) out.push(m[2]!);
  return out;
}

function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of walk(SRC)) {
    const from = relative(SRC, file);
    const deps = importsOf(readFileSync(file, 'utf8')).map((s) => relative(SRC, resolve(dirname(file), s.replace(/\.js$/, '.ts'))));
    g.set(from, [...new Set(deps)]);
  }
  return g;
}

/** Strongly connected components with more than one module (or a module importing itself): Tarjan's algorithm. */
export function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (g.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('the import graph of src/', () => {
  const g = graph();

  it('finds the modules and their imports', () => {
    expect(g.size).toBeGreaterThan(50);
    expect(g.get('cli.ts')).toContain('context.ts');
    // dynamic imports count
    expect(g.get('context.ts')).toContain('emulator/index.ts');
  });

  it('has no import cycle', () => {
    expect(cycles(g)).toEqual([]);
  });

  it('no module outside src/commands/ imports a command (src/cli.ts builds the tree)', () => {
    const bad = [...g].flatMap(([from, deps]) =>
      from.startsWith('commands/') || from === 'cli.ts' ? [] : deps.filter((d) => d.startsWith('commands/')).map((d) => `${from} -> ${d}`),
    );
    expect(bad).toEqual([]);
  });

  it('the checker sees a cycle and all import forms', () => {
    expect(importsOf(`import a from './a.js';\nimport type { B } from "./b.js";\nexport { c } from './c.js';\nconst d = await import('./d.js');\nimport './e.js';\n// import x from './x.js'\n`)).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js']);
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
  });
});
