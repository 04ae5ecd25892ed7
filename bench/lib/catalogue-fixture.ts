// The item catalogue the benchmarks upload: 10 properties of the common value types (BENCH_PROPERTIES), and item i (benchItem).
export const BENCH_PROPERTIES = [
  ['price', 'float'],
  ['stock', 'int32'],
  ['rating', 'float32'],
  ['available', 'bool'],
  ['title', 'unicode64'],
  ['brand', 'unicode16'],
  ['colour', 'unicode16'],
  ['tags', 'unicode16', true],
  ['year', 'uint16'],
  ['weight', 'float64'],
] as const;

export const propertyBody = ([name, type, repeated]: (typeof BENCH_PROPERTIES)[number]) => ({
  property_name: name,
  value_type: type,
  repeated: repeated ?? false,
});

export function benchItem(id: number, i: number): Record<string, unknown> {
  return {
    item_id: id,
    price: (i % 1000) / 10,
    stock: i % 500,
    rating: (i % 50) / 5,
    available: i % 3 === 0,
    title: `Product number ${i}`,
    brand: `brand-${i % 200}`,
    colour: ['red', 'green', 'blue', 'black'][i % 4],
    tags: [`t${i % 7}`, `t${i % 11}`],
    year: 1990 + (i % 35),
    weight: i / 7,
  };
}
