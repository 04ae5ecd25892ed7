// Property values ranked for a profile: scored by the items holding them among the best ranked, an
// item at rank r adding 1 / log2(2 + r) to each of its values (as a discounted gain would).
import { notFound } from '../../../errors/api-error.js';
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { PropertyDef } from '../../../store/properties-store.js';
import type { Catalogues } from '../../catalogue/catalogues.js';
import type { Scorer } from '../../../engine/scoring/scorer.js';
import { withAll, type Ranked, type Want } from '../request/request.js';
import type { Shaper } from './shaping.js';

// Items whose values a property ranking looks at.
const VALUE_DEPTH = 1000;

export type ValuesAnswer = {
  properties: unknown[];
  warnings: string[];
  evaluated_scenarios?: string[];
};

export class ValueRankings {
  constructor(
    private readonly catalogues: Catalogues,
    private readonly shaper: Shaper,
    private readonly scorer: Scorer,
  ) {}

  async rank(db: string, model: LoadedModel, ranked: Ranked, property: string, q: Want): Promise<ValuesAnswer> {
    const cat = this.catalogues.get(db);
    const defs = (await cat.definitions('item')) ?? new Map<string, PropertyDef>();
    const def = defs.get(property.toLowerCase());
    if (!def) throw notFound('ITEM_PROPERTY_NOT_FOUND', 'property', property);
    const shape = await this.shaper.shape(db, q);
    const view = await cat.view('item');
    const r = await this.scorer.rank(model, ranked.spec, VALUE_DEPTH);
    const score = new Map<string, { value: unknown; score: number }>();
    let position = 0;
    for (const i of r.items) {
      if (shape.keep && !shape.keep(i)) continue;
      const v = view.at(i).get(def.seq);
      const gain = 1 / Math.log2(2 + position++);
      for (const one of v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]) {
        const k = typeof one === 'string' ? `s${one}` : `n${String(one)}`;
        const was = score.get(k);
        if (was) was.score += gain;
        else score.set(k, { value: one, score: gain });
      }
    }
    const best = [...score.values()].sort((a, b) => b.score - a.score || String(a.value).localeCompare(String(b.value)));
    return {
      properties: best.slice(0, q.amt).map((e) => e.value),
      warnings: withAll(q.warnings, ranked.warnings),
      ...(q.explain ? { evaluated_scenarios: q.evaluated } : {}),
    };
  }
}
