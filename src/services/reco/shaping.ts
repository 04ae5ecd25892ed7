// What shapes a ranking into a page besides exclusions: filters and reranking rules, both read
// against the catalogue's columnar view of items (at once when the definitions and view are held).
import type { Catalogues } from '../catalogue/catalogues.js';
import type { CatalogueView } from '../catalogue/catalogue-view.js';
import type { PropertyDef } from '../../store/properties-store.js';
import { FilterMasks, listKey } from './filter-masks.js';
import type { Maybe } from './maybe.js';
import { compileReranking, type DiversityRule } from './reranking.js';
import type { Want } from './request.js';

export interface Shape {
  keep?: (item: number) => boolean;
  rules?: DiversityRule[];
  valueOf?: (item: number, seq: number) => unknown;
  key?: string; // what the shape is made of (filters, rules, catalogue version), for caching its orders and passing positions
}

const UNSHAPED: Shape = Object.freeze({});

export class Shaper {
  private readonly masks = new FilterMasks();
  // Reranking rules compiled per rule list (a scenario's list is the same object every request).
  private readonly rerankings = new WeakMap<object, { defs: ReadonlyMap<string, PropertyDef>; rules: DiversityRule[] }>();

  constructor(private readonly catalogues: Catalogues) {}

  shape(db: string, q: Want): Maybe<Shape> {
    if (!q.filters.length && !q.reranking.length) return UNSHAPED;
    const cat = this.catalogues.get(db);
    const defs = cat.cachedDefinitions('item');
    const view = cat.readyView('item');
    if (defs && view) return this.shapeOf(q, defs, view, db);
    return this.read(db, q);
  }

  private async read(db: string, q: Want): Promise<Shape> {
    const cat = this.catalogues.get(db);
    const defs = (await cat.definitions('item')) ?? new Map();
    return this.shapeOf(q, defs, await cat.view('item'), db);
  }

  private shapeOf(q: Want, defs: ReadonlyMap<string, PropertyDef>, view: CatalogueView, db: string): Shape {
    const shape: Shape = { key: `${listKey(q.filters)} ${listKey(q.reranking)} ${view.version}` };
    if (q.filters.length) shape.keep = this.masks.keeper(q.filters, defs, view, db);
    if (q.reranking.length) {
      let held = this.rerankings.get(q.reranking);
      if (!held || held.defs !== defs) this.rerankings.set(q.reranking, (held = { defs, rules: compileReranking(q.reranking, defs) }));
      shape.rules = held.rules;
      shape.valueOf = (i, seq) => view.at(i).get(seq);
    }
    return shape;
  }
}
