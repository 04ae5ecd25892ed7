// What shapes a ranking into a page besides exclusions: filters and reranking rules, both read
// against the catalogue's columnar view of items (at once when the definitions and view are held).
import { LRUCache } from 'lru-cache';
import type { Catalogues } from '../../catalogue/catalogues.js';
import type { CatalogueView } from '../../catalogue/catalogue-view.js';
import type { PropertyDef } from '../../../store/properties-store.js';
import { FilterMasks } from './filter-masks.js';
import type { Maybe } from '../maybe.js';
import { compileReranking, type DiversityRule } from './reranking.js';
import type { Want } from '../request/request.js';
import { listKey } from '../request/rule-lists.js';

export interface Shape {
  keep?: (item: number) => boolean;
  rules?: DiversityRule[];
  valueOf?: (item: number, seq: number) => unknown;
  key?: string; // names what the shape is made of (filters, rules, definitions, catalogue version), for caching its orders and passing positions
}

const UNSHAPED: Shape = Object.freeze({});
// Shapes kept at once (per database and pair of rule lists); past them the least recently used is
// made again when next asked (its filter mask stays with FilterMasks).
const CACHED_SHAPES = 1000;

// A shape with what it was made from: it serves while they are the same.
interface HeldShape {
  view: CatalogueView;
  defs: ReadonlyMap<string, PropertyDef>;
  version: number;
  shape: Shape;
}

export class Shaper {
  private readonly masks = new FilterMasks();
  // Reranking rules compiled per rule list (a scenario's list is the same object every request).
  private readonly rerankings = new WeakMap<object, { defs: ReadonlyMap<string, PropertyDef>; rules: DiversityRule[] }>();
  // One shape per database and rule lists' text, made again when the catalogue view, its version or
  // the definitions change: requests asking the same share it, and its short key.
  private readonly shapes = new LRUCache<string, HeldShape>({ max: CACHED_SHAPES });
  // Shapes made so far: a shape's key is its number, never reused, so that what is kept under an
  // older shape's key (pager.ts: passing positions, diversified orders) is never read for a newer one.
  private made = 0;

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
    const lists = `${db} ${listKey(q.filters)} ${listKey(q.reranking)}`;
    const held = this.shapes.get(lists);
    if (held && held.view === view && held.defs === defs && held.version === view.version) return held.shape;
    const shape = this.make(q, defs, view, db);
    this.shapes.set(lists, { view, defs, version: view.version, shape });
    return shape;
  }

  private make(q: Want, defs: ReadonlyMap<string, PropertyDef>, view: CatalogueView, db: string): Shape {
    const shape: Shape = { key: `s${++this.made}` };
    if (q.filters.length) shape.keep = this.masks.keeper(q.filters, defs, view, db);
    if (q.reranking.length) {
      let held = this.rerankings.get(q.reranking);
      if (!held || held.defs !== defs) this.rerankings.set(q.reranking, (held = { defs, rules: compileReranking(q.reranking, defs) }));
      shape.rules = held.rules;
      shape.valueOf = (i, seq) => view.at(i).get(seq);
    }
    return Object.freeze(shape);
  }
}
