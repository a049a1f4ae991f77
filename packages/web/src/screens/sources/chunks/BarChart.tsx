import { Text } from '@mantine/core';

export interface Bar {
  label: string;
  value: number;
}

/** A plain bar chart (SVG): one bar per chunk, its value on hover and in the accessible label. */
export function BarChart({ title, bars, unit }: { title: string; bars: Bar[]; unit: string }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const width = Math.max(bars.length * 6, 120);
  const total = bars.reduce((sum, bar) => sum + bar.value, 0);
  return (
    <figure style={{ margin: 0 }}>
      <Text fz="sm" fw={500} component="figcaption">
        {title}
      </Text>
      <svg
        role="img"
        aria-label={`${title}: ${bars.length} chunks, ${Math.round(total)} ${unit} in all, at most ${Math.round(max)}`}
        viewBox={`0 0 ${width} 60`}
        preserveAspectRatio="none"
        style={{ width: '100%', height: 60, display: 'block' }}
      >
        {bars.map((bar, index) => {
          const height = (bar.value / max) * 58;
          return (
            <rect
              key={bar.label}
              x={(index * width) / bars.length}
              y={60 - height}
              width={Math.max(1, width / bars.length - 1)}
              height={height}
              fill="var(--mantine-primary-color-filled)"
            >
              <title>{`${bar.label}: ${Math.round(bar.value)} ${unit}`}</title>
            </rect>
          );
        })}
      </svg>
    </figure>
  );
}
