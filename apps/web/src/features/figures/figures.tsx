import { BarChart, LineChart } from '@mantine/charts';
import { SimpleGrid } from '@mantine/core';
import {
  CONTRACT_KIND_LABELS,
  CONTRACT_KINDS,
  type ContractFigures,
  FIGURES_COMPANY_LABELS,
  type LeadTimeMonth,
  waitingStepLabel,
} from '@vertragsgenerator/domain';
import { FigureSection, FigureTable } from './figure-section';
import { monthLong, monthShort, number } from './format';
import { figuresTexts as t } from './texts';

const CHART_HEIGHT = 280;
/** Shared by every chart: the numbers are in the table beside it, so the chart takes no focus. */
const CHART_PROPS = { h: CHART_HEIGHT, accessibilityLayer: false, tooltipAnimationDuration: 0 } as const;

const KIND_COLORS = {
  rahmenvertrag: 'blue.7',
  einzelauftrag: 'teal.7',
  verlaengerung: 'grape.7',
  zusatzvereinbarung: 'orange.7',
  kuendigung: 'red.7',
} as const;

export function EndingsFigure({ figures }: { figures: ContractFigures }) {
  const data = figures.endings.map((month) => ({ label: monthShort(month.month), ...month.byKind }));
  return (
    <FigureSection
      heading={t.endings.heading}
      text={t.endings.text(figures.months)}
      chartLabel={t.endings.chart}
      empty={
        figures.endings.every((month) => month.total === 0) ? t.endings.empty(figures.months) : undefined
      }
      chart={
        <BarChart
          {...CHART_PROPS}
          data={data}
          dataKey="label"
          type="stacked"
          withLegend
          series={CONTRACT_KINDS.map((kind) => ({
            name: kind,
            label: CONTRACT_KIND_LABELS[kind],
            color: KIND_COLORS[kind],
          }))}
          yAxisProps={{ allowDecimals: false }}
        />
      }
      table={
        <FigureTable
          caption={t.endings.caption}
          columns={[t.month, ...CONTRACT_KINDS.map((kind) => CONTRACT_KIND_LABELS[kind]), t.total]}
          rows={figures.endings.map((month) => ({
            key: month.month,
            cells: [
              monthLong(month.month),
              ...CONTRACT_KINDS.map((kind) => number(month.byKind[kind])),
              number(month.total),
            ],
          }))}
        />
      }
    />
  );
}

const leadTimeCells = (row: Omit<LeadTimeMonth, 'month'>) => [
  number(row.count),
  number(row.toSent.median),
  number(row.toSent.p90),
  number(row.toCompleted.median),
  number(row.toCompleted.p90),
];
const LEAD_TIME_COLUMNS = [
  t.leadTimes.completed,
  t.leadTimes.toSentMedian,
  t.leadTimes.toSentP90,
  t.leadTimes.toCompletedMedian,
  t.leadTimes.toCompletedP90,
];

export function LeadTimesFigure({ figures }: { figures: ContractFigures }) {
  const { all, byCompany, byKind } = figures.leadTimes;
  const data = all.map((month) => ({
    label: monthShort(month.month),
    toSentMedian: month.toSent.median,
    toSentP90: month.toSent.p90,
    toCompletedMedian: month.toCompleted.median,
    toCompletedP90: month.toCompleted.p90,
  }));
  return (
    <FigureSection
      heading={t.leadTimes.heading}
      text={t.leadTimes.text}
      chartLabel={t.leadTimes.chart}
      empty={all.every((month) => month.count === 0) ? t.leadTimes.empty(figures.months) : undefined}
      chart={
        <LineChart
          {...CHART_PROPS}
          data={data}
          dataKey="label"
          withLegend
          unit=" T."
          valueFormatter={(value) => number(value)}
          series={[
            { name: 'toSentMedian', label: t.leadTimes.toSentMedian, color: 'cyan.7' },
            { name: 'toSentP90', label: t.leadTimes.toSentP90, color: 'cyan.4', strokeDasharray: '5 5' },
            { name: 'toCompletedMedian', label: t.leadTimes.toCompletedMedian, color: 'indigo.7' },
            {
              name: 'toCompletedP90',
              label: t.leadTimes.toCompletedP90,
              color: 'indigo.4',
              strokeDasharray: '5 5',
            },
          ]}
        />
      }
      table={
        <FigureTable
          caption={t.leadTimes.caption}
          columns={[t.month, ...LEAD_TIME_COLUMNS]}
          rows={all.map((month) => ({
            key: month.month,
            cells: [monthLong(month.month), ...leadTimeCells(month)],
          }))}
        />
      }
    >
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <FigureTable
          caption={t.leadTimes.byCompanyCaption}
          columns={[t.month, t.company, ...LEAD_TIME_COLUMNS]}
          rows={byCompany.map((row) => ({
            key: `${row.month}-${row.company}`,
            cells: [monthLong(row.month), FIGURES_COMPANY_LABELS[row.company], ...leadTimeCells(row)],
          }))}
        />
        <FigureTable
          caption={t.leadTimes.byKindCaption}
          columns={[t.month, t.kind, ...LEAD_TIME_COLUMNS]}
          rows={byKind.map((row) => ({
            key: `${row.month}-${row.kind}`,
            cells: [monthLong(row.month), CONTRACT_KIND_LABELS[row.kind], ...leadTimeCells(row)],
          }))}
        />
      </SimpleGrid>
    </FigureSection>
  );
}

export function ApprovalsFigure({ figures }: { figures: ContractFigures }) {
  const data = figures.approvals.map((month) => ({
    label: monthShort(month.month),
    median: month.hours.median,
    p90: month.hours.p90,
  }));
  return (
    <FigureSection
      heading={t.approvals.heading}
      text={t.approvals.text}
      chartLabel={t.approvals.chart}
      empty={
        figures.approvals.every((month) => month.count === 0) ? t.approvals.empty(figures.months) : undefined
      }
      chart={
        <LineChart
          {...CHART_PROPS}
          data={data}
          dataKey="label"
          withLegend
          unit=" Std."
          valueFormatter={(value) => number(value)}
          series={[
            { name: 'median', label: t.median, color: 'violet.7' },
            { name: 'p90', label: t.p90, color: 'violet.4', strokeDasharray: '5 5' },
          ]}
        />
      }
      table={
        <FigureTable
          caption={t.approvals.caption}
          columns={[t.month, t.approvals.decided, t.approvals.medianHours, t.approvals.p90Hours]}
          rows={figures.approvals.map((month) => ({
            key: month.month,
            cells: [
              monthLong(month.month),
              number(month.count),
              number(month.hours.median),
              number(month.hours.p90),
            ],
          }))}
        />
      }
    />
  );
}

export function WaitingFigure({ figures }: { figures: ContractFigures }) {
  const steps = figures.waiting.map((step) => ({ label: waitingStepLabel(step), count: step.count }));
  return (
    <FigureSection
      heading={t.waiting.heading}
      text={t.waiting.text}
      chartLabel={t.waiting.chart}
      empty={steps.length === 0 ? t.waiting.empty : undefined}
      chart={<HorizontalBars data={steps} />}
      table={
        <FigureTable
          caption={t.waiting.caption}
          columns={[t.waiting.step, t.waiting.envelopes]}
          rows={steps.map((step) => ({ key: step.label, cells: [step.label, number(step.count)] }))}
        />
      }
    />
  );
}

export function DeclinesFigure({ figures }: { figures: ContractFigures }) {
  const reasons = figures.declines.map((decline) => ({
    label: decline.reason === null ? t.declines.other : decline.reason || t.declines.noReason,
    count: decline.count,
  }));
  return (
    <FigureSection
      heading={t.declines.heading}
      text={t.declines.text(figures.months)}
      chartLabel={t.declines.chart}
      empty={reasons.length === 0 ? t.declines.empty(figures.months) : undefined}
      chart={<HorizontalBars data={reasons} />}
      table={
        <FigureTable
          caption={t.declines.caption}
          columns={[t.declines.reason, t.count]}
          rows={reasons.map((reason) => ({ key: reason.label, cells: [reason.label, number(reason.count)] }))}
        />
      }
    />
  );
}

/** Counts by a text (a step, a reason): bars across, the texts beside them. */
function HorizontalBars({ data }: { data: { label: string; count: number }[] }) {
  return (
    <BarChart
      {...CHART_PROPS}
      h={Math.max(160, 44 * data.length + 40)}
      data={data}
      dataKey="label"
      orientation="vertical"
      series={[{ name: 'count', label: t.count, color: 'blue.7' }]}
      yAxisProps={{ width: 200, interval: 0 }}
      xAxisProps={{ allowDecimals: false }}
      withBarValueLabel
    />
  );
}
