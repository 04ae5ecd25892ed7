// Cursor paging of an API listing (its next_cursor): the cursors of the pages before are kept, to go back.
import { useState } from 'preact/hooks';

export interface CursorPages {
  cursor: string; // the current page's ('' for the first)
  number: number; // from 1
  next: (cursor: string) => void;
  previous: () => void;
  first: () => void;
}

export function useCursorPages(): CursorPages {
  const [before, setBefore] = useState<string[]>([]);
  const [cursor, setCursor] = useState('');
  return {
    cursor,
    number: before.length + 1,
    next: (c) => (setBefore([...before, cursor]), setCursor(c)),
    previous: () => (setCursor(before[before.length - 1] ?? ''), setBefore(before.slice(0, -1))),
    first: () => (setBefore([]), setCursor('')),
  };
}

// nextCursor: undefined while there is no next page (or it is not known yet).
export function Pager({ pages, nextCursor, label }: { pages: CursorPages; nextCursor: string | undefined; label: string }) {
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={pages.number === 1} onClick={pages.previous}>
        Previous
      </button>
      <span class="muted">page {pages.number}</span>
      <button type="button" disabled={nextCursor === undefined} onClick={() => nextCursor !== undefined && pages.next(nextCursor)}>
        Next
      </button>
    </nav>
  );
}
