// A time series drawn by uPlot (bundled, no CDN): call counts over time.
import uPlot from 'uplot';
import { useEffect, useRef } from 'preact/hooks';

// range: the time window in seconds, so that a few points are drawn where they fall in it.
export function TimeChart({
  label,
  timestamps,
  counts,
  range,
}: {
  label: string;
  timestamps: number[];
  counts: number[];
  range: [number, number];
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(320, el.clientWidth);
    const plot = new uPlot(
      {
        width,
        height: 220,
        series: [{}, { label, stroke: '#2563eb', fill: 'rgba(37, 99, 235, 0.12)', width: 2, points: { show: timestamps.length < 40 } }],
        axes: [{}, { label: 'calls' }],
        scales: { x: { time: true, range: () => range }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      },
      [timestamps, counts],
      el,
    );
    return () => plot.destroy();
  }, [label, timestamps, counts, range[0], range[1]]);
  return (
    <div
      ref={box}
      class="chart"
      role="img"
      aria-label={`${label}: ${counts.reduce((a, b) => a + b, 0)} calls in ${timestamps.length} points`}
    />
  );
}

const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];

// Several series over one x axis (days as seconds, or positions 1..10): rates, null where unknown.
export function SeriesChart({
  label,
  x,
  series,
  time,
  yLabel,
  range,
}: {
  label: string;
  x: number[];
  series: { label: string; values: (number | null)[] }[];
  time: boolean;
  yLabel: string;
  range?: [number, number]; // of x; else its values' (a single point would stretch the axis over years)
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || x.length === 0) return;
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: 220,
        series: [{}, ...series.map((s, k) => ({ label: s.label, stroke: COLOURS[k % COLOURS.length], width: 2, spanGaps: true }))],
        axes: [{}, { label: yLabel }],
        scales: {
          x: { time, range: () => range ?? [Math.min(...x) - (time ? 86_400 : 1), Math.max(...x) + (time ? 86_400 : 1)] },
          y: { range: (_u, _min, max) => [0, Math.max(0.01, max)] },
        },
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    return () => plot.destroy();
  }, [label, x, series, time, yLabel, range?.[0], range?.[1]]);
  return <div ref={box} class="chart" role="img" aria-label={`${label}: ${series.map((s) => s.label).join(', ')}`} />;
}
