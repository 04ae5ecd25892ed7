// A filter set's verdict per item row, kept per catalogue version: each item is tested at most once
// per version, lazily (only the candidates a ranking reaches), so no request scans the catalogue.
import { LRUCache } from 'lru-cache';
import type { CatalogueView } from '../../catalogue/catalogue-view.js';
import { compileFilters, RECO_OPS } from '../../catalogue/filters.js';
import type { PropertyDef } from '../../../store/properties-store.js';
import type { Want } from '../request/request.js';
import { listKey } from '../request/rule-lists.js';

const CACHED_MASKS = 1000;

interface FilterMask {
  view: CatalogueView;
  defs: ReadonlyMap<string, PropertyDef>;
  version: number;
  test: (values: ReadonlyMap<number, unknown>) => boolean;
  verdict: Uint8Array; // 0 untested, 1 passes, 2 fails
}

export class FilterMasks {
  private readonly masks = new LRUCache<string, FilterMask>({ max: CACHED_MASKS });

  // Whether an item row passes the filters.
  keeper(filters: Want['filters'], defs: ReadonlyMap<string, PropertyDef>, view: CatalogueView, db: string): (i: number) => boolean {
    const key = `${db} ${listKey(filters)}`;
    let m = this.masks.get(key);
    if (!m || m.view !== view || m.defs !== defs || m.version !== view.version) {
      m = { view, defs, version: view.version, test: compileFilters(filters, defs, RECO_OPS), verdict: new Uint8Array(view.size) };
      this.masks.set(key, m);
    }
    const mask = m;
    return (i) => {
      if (i >= mask.verdict.length) return mask.test(view.at(i));
      let v = mask.verdict[i]!;
      if (v === 0) mask.verdict[i] = v = mask.test(view.at(i)) ? 1 : 2;
      return v === 1;
    };
  }
}
