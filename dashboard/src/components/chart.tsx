// A time series drawn by uPlot (bundled, no CDN): call counts over time.
import uPlot from 'uplot';
import { useEffect, useRef } from 'preact/hooks';

export function TimeChart({ label, timestamps, counts }: { label: string; timestamps: number[]; counts: number[] }) {
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
        scales: { x: { time: true } },
      },
      [timestamps, counts],
      el,
    );
    return () => plot.destroy();
  }, [label, timestamps, counts]);
  return <div ref={box} class="chart" role="img" aria-label={`${label}: ${counts.reduce((a, b) => a + b, 0)} calls in ${timestamps.length} points`} />;
}
