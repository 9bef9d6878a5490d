import { describe, expect, it } from 'vitest';
import { horizontalTable } from '../../src/output/table.js';

describe('tables of many rows', () => {
  it('measures column widths without spreading one argument per row (200,000 rows)', async () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: `S${i}` }));
    const out = await horizontalTable(rows, [{ path: 'id', header: 'ID' }], { color: false });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(200_001);
    expect(lines[0]).toBe('ID');
    expect(lines.at(-1)).toBe('S199999');
  });
});
