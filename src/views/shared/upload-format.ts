import type { IntlShape } from 'react-intl';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A size in the viewer's locale, in binary steps (1 MB = 1024 KB): "12.3 MB", "870 KB". */
export function formatBytes(intl: IntlShape, bytes: number, perSecond = false): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return intl.formatNumber(value, {
    style: 'unit',
    unit: perSecond ? `${UNITS[unit]}-per-second` : UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  });
}
