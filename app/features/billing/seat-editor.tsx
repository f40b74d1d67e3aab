import { LoaderCircle } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/fields.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { useBillingAction } from "./use-billing-action.ts";

export interface SeatEditorProps {
  total: number;
  used: number;
  pending: number;
  minSeats: number;
  maxSeats: number | null;
  /** Price of one seat per period, for the hint. */
  seatPrice: string;
  pendingSeats: number | null;
  version: number;
}

/**
 * An organisation admin changes the seat count (`POST /api/billing/seats`): more seats now,
 * prorated; fewer at the period end, never below the members. Also used on /business/dashboard.
 */
export function SeatEditor(props: SeatEditorProps) {
  const action = useBillingAction();
  const [seats, setSeats] = useState(String(props.pendingSeats ?? props.total));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const floor = Math.max(props.minSeats, props.used);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const n = Number(seats);
    if (!Number.isInteger(n) || n < floor || (props.maxSeats !== null && n > props.maxSeats)) {
      setFieldError(
        props.maxSeats !== null
          ? `Enter ${floor} to ${props.maxSeats} seats.`
          : `Enter ${floor} seats or more.`,
      );
      return;
    }
    setFieldError(null);
    await action.run(
      "seats",
      "/api/billing/seats",
      { seats: n, version: props.version },
      n > props.total ? `Seats raised to ${n}` : `${n} seats from the next period`,
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3">
      <p className="text-sm text-ink-muted">
        {props.used} of {props.total} seats used{props.pending > 0 ? ` · ${props.pending} invited` : ""}. Each
        seat costs {props.seatPrice}. More seats apply now (prorated); fewer from the next period, never below
        your members.
      </p>
      {props.pendingSeats !== null && props.pendingSeats !== props.total ? (
        <Notice tone="info">{props.pendingSeats} seats from the next period.</Notice>
      ) : null}
      {action.error ? (
        <Notice tone="danger" role="alert">
          {action.error}
        </Notice>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field
          className="sm:w-40"
          label="Seats"
          type="number"
          name="seats"
          inputMode="numeric"
          min={floor}
          max={props.maxSeats ?? undefined}
          value={seats}
          onChange={(e) => setSeats(e.target.value)}
          error={fieldError}
          disabled={action.busy !== null}
        />
        <Button type="submit" variant="secondary" disabled={action.busy !== null}>
          {action.busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          Update seats
        </Button>
      </div>
    </form>
  );
}
