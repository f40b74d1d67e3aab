import { Eye, EyeOff } from "lucide-react";
import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from "react";
import { cx } from "./cx.ts";

export const inputClass =
  "h-10 w-full rounded-lg border border-line-strong bg-elevated px-3 text-sm text-ink placeholder:text-ink-subtle " +
  "focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 disabled:opacity-60 " +
  "aria-invalid:border-danger-text aria-invalid:ring-danger-text/20";

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  optional?: boolean;
  /** A message about this field (client check or server answer), announced and linked to the input. */
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}

function describedBy(...ids: Array<string | null | undefined | false>): string | undefined {
  const list = ids.filter(Boolean).join(" ");
  return list || undefined;
}

function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  // Always rendered so screen readers announce a message when it appears.
  return (
    <p id={id} aria-live="polite" className={cx("text-xs text-danger-text", message ? "mt-1.5" : "sr-only")}>
      {message ?? ""}
    </p>
  );
}

export function Field({ label, hint, optional, error, inputRef, id, className, ...rest }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <label
        htmlFor={inputId}
        className="mb-1.5 flex items-baseline justify-between text-sm font-medium text-ink"
      >
        {label}
        {optional ? <span className="text-xs font-normal text-ink-subtle">Optional</span> : null}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        aria-describedby={describedBy(error && errorId, hintId)}
        aria-invalid={error ? true : undefined}
        className={inputClass}
        {...rest}
      />
      <FieldError id={errorId} message={error} />
      {hint ? (
        <div id={hintId} className="mt-1.5 text-xs text-ink-subtle">
          {hint}
        </div>
      ) : null}
    </div>
  );
}

export function PasswordField({
  label,
  describedBy: extra,
  error,
  inputRef,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & {
  label: string;
  describedBy?: string;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const [visible, setVisible] = useState(false);
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative">
        <input
          ref={inputRef}
          id={id}
          type={visible ? "text" : "password"}
          aria-describedby={describedBy(error && errorId, extra)}
          aria-invalid={error ? true : undefined}
          className={cx(inputClass, "pr-10")}
          {...rest}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? "Hide password" : "Show password"}
          aria-pressed={visible}
          className="absolute top-1/2 right-1 inline-flex size-8 -translate-y-1/2 items-center justify-center rounded-md text-ink-subtle hover:text-ink"
        >
          {visible ? (
            <EyeOff aria-hidden="true" className="size-4" />
          ) : (
            <Eye aria-hidden="true" className="size-4" />
          )}
        </button>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
