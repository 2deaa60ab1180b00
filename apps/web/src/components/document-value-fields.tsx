import { texts } from '@/texts';
import { NumberField } from './fields';

const labels = texts.forms.labels;

/** Upper bounds as the server's dataList schemas accept them. */
const MAX_RATE = 100_000;
const MAX_HOURS_PER_WEEK = 80;
const MAX_PROJECT_HOURS = 100_000;
const MAX_PROJECT_DAYS = 10_000;

type Value = number | null;
type ServerError = (field: string) => string | undefined;

/**
 * An extension's new rates and hours per week: each optional, empty meaning „unchanged“. The single
 * agreement form and a batch of extensions ask them alike.
 */
export function ExtensionRateFields({
  remote,
  onsite,
  hours,
  serverError,
}: {
  remote: [Value, (value: Value) => void];
  onsite: [Value, (value: Value) => void];
  hours: [Value, (value: Value) => void];
  serverError: ServerError;
}) {
  return (
    <>
      <NumberField
        label={labels.newRateRemote}
        value={remote[0]}
        onChange={remote[1]}
        min={0}
        max={MAX_RATE}
        serverError={serverError('neuerSatzRemote')}
      />
      <NumberField
        label={labels.newRateOnsite}
        value={onsite[0]}
        onChange={onsite[1]}
        min={0}
        max={MAX_RATE}
        serverError={serverError('neuerSatzOnsite')}
      />
      <NumberField
        label={labels.newHoursPerWeek}
        value={hours[0]}
        onChange={hours[1]}
        min={0}
        max={MAX_HOURS_PER_WEEK}
        serverError={serverError('neueStundenProWoche')}
      />
    </>
  );
}

/** An offer's volume in hours and days, both required: the single offer form and a batch of offers. */
export function OfferVolumeFields({
  hours,
  days,
  showErrors,
  serverError,
}: {
  hours: [Value, (value: Value) => void];
  days: [Value, (value: Value) => void];
  showErrors: boolean;
  serverError: ServerError;
}) {
  return (
    <>
      <NumberField
        label={labels.projectHours}
        value={hours[0]}
        onChange={hours[1]}
        min={0}
        max={MAX_PROJECT_HOURS}
        required
        showErrors={showErrors}
        serverError={serverError('projectHours')}
      />
      <NumberField
        label={labels.projectDays}
        value={days[0]}
        onChange={days[1]}
        min={0}
        max={MAX_PROJECT_DAYS}
        required
        showErrors={showErrors}
        serverError={serverError('projectDays')}
      />
    </>
  );
}
