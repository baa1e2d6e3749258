/**
 * The dashboard's two charts, drawn with a few elements each (decision 0028): the charts'
 * library took 97 KiB of scripts and a third of a second of the main thread for 37 points,
 * in the page every administrator opens first. The reports keep @mantine/charts.
 */
import type { FleetDashboard } from '@patchwell/core/reports/dashboard.schema';
import type { CSSProperties, ReactNode } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatShortDay } from '../../../ui/format-date';
import classes from './DashboardCharts.module.css';

const T = CONSOLE_TEXTS.dashboard;

/** Each chart's height, its legend included. */
const CHART_HEIGHT = 200;

/** The smallest of 1, 2, 5 × 10ⁿ at least `value` (at least 1): the top of a count axis. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((s) => s * magnitude >= value) ?? 10;
  return step * magnitude;
}

const color = (name: string) => `var(--mantine-color-${name})`;

/** Axes, grid lines and the plotted area; `plot` fills the area between the axes. */
function ChartFrame(props: {
  label: string;
  ticks: { at: number; text: string }[];
  days: string[];
  plot: ReactNode;
  height?: number;
}) {
  // At most five dates under the axis: they fit a phone's width.
  const every = Math.ceil(props.days.length / 5);
  return (
    <div className={classes.chart} style={{ height: props.height }} role="img" aria-label={props.label}>
      <div className={classes.yAxis}>
        {props.ticks.map((t) => (
          <span key={t.at} className={classes.tick} style={{ bottom: `${t.at}%` }}>
            {t.text}
          </span>
        ))}
      </div>
      <div className={classes.plot}>
        {props.ticks.map((t) => (
          <span key={t.at} className={classes.gridLine} style={{ bottom: `${t.at}%` }} />
        ))}
        {props.plot}
      </div>
      <div className={classes.xAxis} style={{ '--days': props.days.length } as CSSProperties}>
        {props.days.map((day, i) => (
          <span key={day}>{i % every === 0 ? formatShortDay(day) : ''}</span>
        ))}
      </div>
    </div>
  );
}

/** Compliant devices in percent per day; days without a snapshot are gaps, not zeros. */
export function ComplianceTrend({ trend }: { trend: FleetDashboard['compliance']['trend'] }) {
  const n = trend.length;
  const x = (i: number) => ((i + 0.5) / n) * 100;
  // One sub-path per run of days with a figure; a lone day is a dot.
  let path = '';
  trend.forEach((d, i) => {
    if (d.percent === null) return;
    const joined = i > 0 && trend[i - 1]?.percent !== null;
    path += `${joined ? 'L' : 'M'}${x(i)} ${100 - d.percent}`;
    if (!joined && (trend[i + 1]?.percent ?? null) === null) path += 'l0 0';
  });
  const ticks = [0, 50, 100].map((at) => ({ at, text: `${at}%` }));
  return (
    <ChartFrame
      height={CHART_HEIGHT}
      label={T.complianceTrend}
      ticks={ticks}
      days={trend.map((d) => d.date)}
      plot={
        <>
          <svg className={classes.line} viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
            <path d={path} stroke={color('green-6')} />
          </svg>
          <div className={classes.columns}>
            {trend.map((d) => (
              <span
                key={d.date}
                className={classes.hover}
                title={`${formatShortDay(d.date)}, ${T.percentLabel}: ${d.percent === null ? T.noFigure : d.percent}`}
              />
            ))}
          </div>
        </>
      }
    />
  );
}

/** Patches installed and failed installs per day of the last week. */
export function ActivityChart({ days }: { days: FleetDashboard['activity'] }) {
  const top = niceCeiling(Math.max(0, ...days.flatMap((d) => [d.installed, d.failed])));
  const series = [
    { key: 'installed', label: T.installed, color: color('blue-6') },
    { key: 'failed', label: T.failed, color: color('orange-6') },
  ] as const;
  // Counts are whole: the middle line only where it falls on one.
  const ticks = (top % 2 === 0 ? [0, 50, 100] : [0, 100]).map((at) => ({ at, text: String((top * at) / 100) }));
  return (
    <div className={classes.withLegend} style={{ height: CHART_HEIGHT }}>
      <div className={classes.legend} aria-hidden="true">
        {series.map((s) => (
          <span key={s.key}>
            <span className={classes.swatch} style={{ background: s.color }} />
            {s.label}
          </span>
        ))}
      </div>
      <ChartFrame
        label={T.activity}
        ticks={ticks}
        days={days.map((d) => d.date)}
        plot={
          <div className={classes.columns}>
            {days.map((d) => (
              <span key={d.date} className={classes.group}>
                {series.map((s) => (
                  <span
                    key={s.key}
                    className={classes.bar}
                    style={{ height: `${(d[s.key] / top) * 100}%`, background: s.color }}
                    title={`${formatShortDay(d.date)}, ${s.label}: ${d[s.key]}`}
                  />
                ))}
              </span>
            ))}
          </div>
        }
      />
    </div>
  );
}
