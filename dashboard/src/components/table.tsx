// Tables: one with named columns, and one of entity rows (items, users) with a column per property.
import type { ComponentChildren } from 'preact';
import { Value } from './bits';
import type { Row } from '../types';

export function Table({ headers, label, children }: { headers: string[]; label?: string; children: ComponentChildren }) {
  return (
    <div class="scroll">
      <table aria-label={label}>
        <thead>
          <tr>
            {headers.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

// Every property any of the rows has, in the order they first appear.
export const columnsOf = (rows: Row[]): string[] => [...new Set(rows.flatMap((r) => Object.keys(r)))];

// ranked: a first column with the rank. cell: what a cell shows instead of its value (undefined: the value).
export function RowsTable({
  rows,
  columns,
  label,
  ranked,
  cell,
}: {
  rows: Row[];
  columns: string[];
  label: string;
  ranked?: boolean;
  cell?: (row: Row, column: string) => ComponentChildren | undefined;
}) {
  return (
    <Table label={label} headers={ranked ? ['#', ...columns] : columns}>
      {rows.map((r, i) => (
        <tr key={i}>
          {ranked && <td>{i + 1}</td>}
          {columns.map((c) => (
            <td key={c}>{cell?.(r, c) ?? <Value v={r[c]} />}</td>
          ))}
        </tr>
      ))}
    </Table>
  );
}
