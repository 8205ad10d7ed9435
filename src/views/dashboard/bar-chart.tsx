/**
 * A bar chart of one daily series drawn as plain SVG in the theme's tokens (docs/decisions.md
 * "The dashboard's charts are our own SVG"): a grid with rounded ticks, the days on the x axis
 * (thinned to fit), and a tooltip with the day and its value under the pointer. It draws; the
 * caller's figure names it and its table speaks for it, so the drawing is hidden from screen
 * readers. Its width follows its box (a ResizeObserver) so the text keeps its size.
 */
import { Box, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';

export interface BarChartProps {
  rows: { label: string; value: number }[];
  /** A colour token, e.g. 'teal.solid'. */
  color: string;
  /** The values' text (ticks and tooltip). */
  format: (value: number) => string;
  /** Ticks may fall between whole numbers (money). */
  decimals?: boolean;
  /** The day's text under its bar and in the tooltip. */
  shortLabel?: (label: string) => string;
}

const HEIGHT = 192;
const LEFT = 52;
const BOTTOM = 24;
const TOP = 8;
const TICKS = 4;
const LABEL_WIDTH = 44;

/** `teal.solid` → the CSS variable Chakra gives that token. */
const tokenVar = (token: string) => `var(--chakra-colors-${token.replace(/\./g, '-')})`;

/** A step of 1, 2, 2.5 or 5 times a power of ten that covers `max` in `TICKS` steps. */
export function niceStep(max: number, decimals: boolean): number {
  if (max <= 0) return 1;
  const raw = max / TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  return decimals ? step : Math.max(1, Math.ceil(step));
}

function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

export function BarChart({ rows, color, format, decimals = false, shortLabel }: BarChartProps) {
  const [boxRef, width] = useWidth<HTMLDivElement>();
  const [hover, setHover] = useState<number | null>(null);
  const label = shortLabel ?? ((l: string) => l);
  const max = Math.max(0, ...rows.map((r) => r.value));
  const step = niceStep(max, decimals);
  const top = step * Math.max(1, Math.ceil(max / step));
  const plotWidth = Math.max(0, width - LEFT);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const band = rows.length ? plotWidth / rows.length : 0;
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const every = Math.max(1, Math.ceil(LABEL_WIDTH / Math.max(band, 1)));
  const onMove = (event: PointerEvent<SVGSVGElement>) => {
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left - LEFT;
    const index = Math.floor(x / band);
    setHover(index >= 0 && index < rows.length ? index : null);
  };
  const hovered = hover === null ? undefined : rows[hover];
  return (
    <Box ref={boxRef} position="relative" h={`${HEIGHT}px`}>
      {width > 0 && (
        <svg
          width={width}
          height={HEIGHT}
          onPointerMove={onMove}
          onPointerLeave={() => setHover(null)}
          style={{ display: 'block', fontSize: '12px' }}
        >
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                x1={LEFT}
                x2={width}
                y1={y(tick)}
                y2={y(tick)}
                style={{ stroke: tokenVar('border.muted') }}
              />
              <text
                x={LEFT - 6}
                y={y(tick)}
                textAnchor="end"
                dominantBaseline="middle"
                style={{ fill: tokenVar('fg.muted') }}
              >
                {format(tick)}
              </text>
            </g>
          ))}
          {hover !== null && (
            <rect
              x={LEFT + hover * band}
              y={TOP}
              width={band}
              height={plotHeight}
              style={{ fill: tokenVar('bg.muted') }}
            />
          )}
          {rows.map((row, i) => (
            <rect
              key={row.label}
              data-bar
              x={LEFT + i * band + band * 0.15}
              y={y(row.value)}
              width={band * 0.7}
              height={Math.max(0, TOP + plotHeight - y(row.value))}
              style={{ fill: tokenVar(color) }}
            />
          ))}
          <line
            x1={LEFT}
            x2={width}
            y1={TOP + plotHeight}
            y2={TOP + plotHeight}
            style={{ stroke: tokenVar('border') }}
          />
          {rows.map((row, i) =>
            i % every === 0 ? (
              <text
                key={row.label}
                x={LEFT + i * band + band / 2}
                y={HEIGHT - 6}
                textAnchor="middle"
                style={{ fill: tokenVar('fg.muted') }}
              >
                {label(row.label)}
              </text>
            ) : null,
          )}
        </svg>
      )}
      {hovered && hover !== null && (
        <Box
          position="absolute"
          top="0"
          left={`${Math.min(LEFT + hover * band + band, Math.max(0, width - 120))}px`}
          bg="bg.panel"
          borderWidth="1px"
          borderRadius="sm"
          boxShadow="sm"
          px="2"
          py="1"
          pointerEvents="none"
          data-testid="chart-tooltip"
        >
          <Text fontSize="xs" color="fg.muted">
            {label(hovered.label)}
          </Text>
          <Text fontSize="sm" fontWeight="medium">
            {format(hovered.value)}
          </Text>
        </Box>
      )}
    </Box>
  );
}
