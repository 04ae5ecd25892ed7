// Catalogue: items and users a page at a time, with the listing's filters; one item's properties.
import { useState } from 'preact/hooks';
import { useApp } from '../app-context';
import { ErrorBox, Facts, Section, Value, lines } from '../components/bits';
import { useLoad } from '../hooks';
import type { Page, Property, Row } from '../types';

type Kind = 'items' | 'users';
const AMT = 20;

export function Catalogue() {
  const [kind, setKind] = useState<Kind>('items');
  const [selected, setSelected] = useState<string | undefined>(undefined);
  return (
    <>
      <h1>Catalogue</h1>
      <div class="tabs" role="group" aria-label="Browse">
        {(['items', 'users'] as const).map((k) => (
          <button key={k} type="button" aria-pressed={kind === k} onClick={() => (setKind(k), setSelected(undefined))}>
            {k === 'items' ? 'Items' : 'Users'}
          </button>
        ))}
      </div>
      <div class="split">
        <Browser key={kind} kind={kind} onSelect={setSelected} />
        {selected !== undefined && <Details kind={kind} id={selected} onClose={() => setSelected(undefined)} />}
      </div>
    </>
  );
}

function Browser({ kind, onSelect }: { kind: Kind; onSelect: (id: string) => void }) {
  const { client, session } = useApp();
  const props = useLoad(() => client.get<{ properties: Property[] }>(`${kind}-properties/`), [kind, session.database?.id]);
  // The cursors of the pages before this one, to go back; the cursor of this one.
  const [cursors, setCursors] = useState<string[]>([]);
  const [cursor, setCursor] = useState('');
  const [filterText, setFilterText] = useState('');
  const [filters, setFilters] = useState<string[]>([]);
  const idKey = kind === 'items' ? 'item_id' : 'user_id';
  const page = useLoad(
    () => client.get<Page & Record<string, Row[]>>(`${kind}-bulk/properties/`, { amt: AMT, cursor, ...(kind === 'items' ? { filters } : {}) }),
    [kind, cursor, filters.join('\n'), session.database?.id],
  );
  const rows = (page.data?.[kind] as Row[] | undefined) ?? [];
  const columns = [idKey, ...(props.data?.properties.map((p) => p.property_name) ?? [])];
  return (
    <Section title={kind === 'items' ? 'Items' : 'Users'}>
      {kind === 'items' && (
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            setCursors([]);
            setCursor('');
            setFilters(lines(filterText));
          }}
        >
          <label for="item-filters">Filters, one per line (property:op:value, e.g. genre:eq:a or price:lt:10)</label>
          <textarea id="item-filters" rows={2} value={filterText} onInput={(e) => setFilterText((e.target as HTMLTextAreaElement).value)} />
          <button type="submit">Apply filters</button>
        </form>
      )}
      <ErrorBox error={props.error ?? page.error} />
      <div class="scroll">
        <table aria-label={`${kind} listing`}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={String(r[idKey])}>
                {columns.map((c, i) => (
                  <td key={c}>
                    {i === 0 ? (
                      <button type="button" class="link" onClick={() => onSelect(String(r[idKey]))}>
                        {String(r[idKey])}
                      </button>
                    ) : (
                      <Value v={r[c]} />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page.data && rows.length === 0 && <p class="muted">Nothing {filters.length ? 'matches these filters' : 'here yet'}.</p>}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={cursors.length === 0} onClick={() => (setCursor(cursors[cursors.length - 1]!), setCursors(cursors.slice(0, -1)))}>
          Previous
        </button>
        <span class="muted">page {cursors.length + 1}</span>
        <button type="button" disabled={!page.data?.has_next} onClick={() => (setCursors([...cursors, cursor]), setCursor(page.data!.next_cursor))}>
          Next
        </button>
      </nav>
    </Section>
  );
}

function Details({ kind, id, onClose }: { kind: Kind; id: string; onClose: () => void }) {
  const { client } = useApp();
  const one = kind === 'items' ? 'item' : 'user';
  const entity = useLoad(() => client.get<Record<string, Row>>(`${kind}/${encodeURIComponent(id)}/properties/`), [kind, id]);
  const row = entity.data?.[one];
  return (
    <Section
      title={`${one === 'item' ? 'Item' : 'User'} ${id}`}
      actions={
        <button type="button" onClick={onClose} aria-label="Close details">
          Close
        </button>
      }
    >
      <ErrorBox error={entity.error} />
      {row && <Facts testid="entity-details" rows={Object.entries(row).map(([k, v]) => [k, <Value v={v} />])} />}
    </Section>
  );
}
