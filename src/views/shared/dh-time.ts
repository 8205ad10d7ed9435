import type { MessageId } from '../../i18n/messages';

/**
 * Digital-human time (whole seconds) as everywhere in the console: "2 分 13 秒" / "2 min 13 s",
 * "30 分钟", "13 秒"; exact, '-' before a loss and, when `signed`, '+' before a gain.
 */
export function formatDhTime(
  t: (id: MessageId, values: Record<string, number>) => string,
  seconds: number,
  signed = false,
): string {
  const whole = Math.round(seconds);
  const sign = whole < 0 ? '-' : signed && whole > 0 ? '+' : '';
  const min = Math.floor(Math.abs(whole) / 60);
  const sec = Math.abs(whole) % 60;
  const id: MessageId =
    min === 0 ? 'dhTime.seconds' : sec === 0 ? 'dhTime.minutes' : 'dhTime.minutesSeconds';
  return sign + t(id, { min, sec });
}
