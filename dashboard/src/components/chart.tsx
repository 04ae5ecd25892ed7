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
