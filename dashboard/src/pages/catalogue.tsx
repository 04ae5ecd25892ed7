// Catalogue: items and users a page at a time, items with the listing's filters; one item's or user's properties.
import { useState } from 'preact/hooks';
import { ok } from '../api';
import { useApp } from '../app-context';
import { ErrorBox, Facts, Section, Value, lines } from '../components/bits';
import { ActionForm, Field } from '../components/form';
import { Pager, useCursorPages } from '../components/pager';
import { RowsTable } from '../components/table';
import { useLoad } from '../hooks';
import type { Row } from '../types';

type Kind = 'items' | 'users';
const AMT = 20;

export function Catalogue() {
  const [kind, setKind] = useState<Kind>('items');
  const [selected, setSelected] = useState<string | undefined>(undefined);
  return (
    <>
      <h1>Catalogue</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: a row of tab buttons, not a form's fieldset */}
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
  const props = useLoad(
    () => ok(kind === 'items' ? client.GET('/items-properties/') : client.GET('/users-properties/')),
    [kind, session.database?.id],
  );
  const pages = useCursorPages();
  const [filterText, setFilterText] = useState('');
  const [filters, setFilters] = useState<string[]>([]);
  const idKey = kind === 'items' ? 'item_id' : 'user_id';
  const page = useLoad(async () => {
    // The first page goes without a cursor.
    const query = { amt: AMT, cursor: pages.cursor || undefined };
    if (kind === 'users') {
      const { users, ...rest } = await ok(client.GET('/users-bulk/properties/', { params: { query } }));
      return { rows: users, ...rest };
    }
    const { items, ...rest } = await ok(client.GET('/items-bulk/properties/', { params: { query: { ...query, filters } } }));
    return { rows: items, ...rest };
  }, [kind, pages.cursor, filters.join('\n'), session.database?.id]);
  const rows: Row[] = page.data?.rows ?? [];
  const columns = [idKey, ...(props.data?.properties.map((p) => p.property_name) ?? [])];
  const label = `${kind} listing`;
  return (
    <Section title={kind === 'items' ? 'Items' : 'Users'}>
      {kind === 'items' && (
        <ActionForm
          label="Item filters"
          class="filters"
          submit="Apply filters"
          onSubmit={() => (pages.first(), setFilters(lines(filterText)))}
        >
          <Field
            id="item-filters"
            label="Filters, one per line (property:op:value, e.g. genre:eq:a or price:lt:10)"
            rows={2}
            value={filterText}
            set={setFilterText}
          />
        </ActionForm>
      )}
      <ErrorBox error={props.error ?? page.error} />
      <RowsTable
        rows={rows}
        columns={columns}
        label={label}
        cell={(r, c) =>
          c === idKey ? (
            <button type="button" class="link" onClick={() => onSelect(String(r[idKey]))}>
              {String(r[idKey])}
            </button>
          ) : undefined
        }
      />
      {page.data && rows.length === 0 && <p class="muted">Nothing {filters.length ? 'matches these filters' : 'here yet'}.</p>}
      <Pager
        pages={pages}
        nextCursor={!page.loading && page.data?.has_next ? page.data.next_cursor : undefined}
        label={`${label} paging`}
      />
    </Section>
  );
}

function Details({ kind, id, onClose }: { kind: Kind; id: string; onClose: () => void }) {
  const { client } = useApp();
  const one = kind === 'items' ? 'item' : 'user';
  const entity = useLoad<Row>(
    () =>
      kind === 'items'
        ? ok(client.GET('/items/{item_id}/properties/', { params: { path: { item_id: id } } })).then((a) => a.item)
        : ok(client.GET('/users/{user_id}/properties/', { params: { path: { user_id: id } } })).then((a) => a.user),
    [kind, id],
  );
  const row = entity.data;
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
