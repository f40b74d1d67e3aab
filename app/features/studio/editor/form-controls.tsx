/**
 * The editor's form controls beyond the shared `Field`: a textarea, a select, a checkbox, a
 * comma-separated list and a character counter. Each links its error message to its input.
 */
import {
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useState,
} from "react";
import { cx } from "../../../components/ui/cx.ts";
import { Field, inputClass } from "../../../components/ui/fields.tsx";
import { parseList } from "./editor-fields.ts";

function Label({ htmlFor, children, aside }: { htmlFor: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <label
      htmlFor={htmlFor}
      className="mb-1.5 flex items-baseline justify-between gap-2 text-sm font-medium text-ink"
    >
      {children}
      {aside}
    </label>
  );
}

function Message({ id, error, hint }: { id: string; error?: string | null; hint?: ReactNode }) {
  return (
    <>
      <p
        id={`${id}-error`}
        aria-live="polite"
        className={cx("text-xs text-danger-text", error ? "mt-1.5" : "sr-only")}
      >
        {error ?? ""}
      </p>
      {hint ? (
        <div id={`${id}-hint`} className="mt-1.5 text-xs text-ink-subtle">
          {hint}
        </div>
      ) : null}
    </>
  );
}

const described = (id: string, error?: string | null, hint?: ReactNode) =>
  [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;

/** "42 / 160": the count turns to a warning past `guide` and to an error past `max`. */
export function Counter({ length, guide, max }: { length: number; guide?: number; max: number }) {
  const over = length > max;
  const long = guide !== undefined && length > guide;
  return (
    <span
      className={cx(
        "text-xs font-normal tabular-nums",
        over ? "text-danger-text" : long ? "text-warn-text" : "text-ink-subtle",
      )}
    >
      {length} / {guide ?? max}
      {long && !over ? " (may be cut off)" : ""}
    </span>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  aside,
  mono,
  className,
  ...rest
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  aside?: ReactNode;
  /** Code (JSON): a monospaced font. */
  mono?: boolean;
}) {
  const id = useId();
  return (
    <div className={className}>
      <Label htmlFor={id} aside={aside}>
        {label}
      </Label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, error, hint)}
        className={cx(
          inputClass,
          "h-auto min-h-20 py-2 leading-relaxed",
          mono && "font-mono text-[0.8125rem]",
        )}
        {...rest}
      />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({
  label,
  error,
  hint,
  className,
  children,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string | null; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, error, hint)}
        className={inputClass}
        {...rest}
      >
        {children}
      </select>
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function CheckboxField({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-2.5">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-0.5 size-4 rounded border-line-strong accent-[var(--c-accent)]"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-ink-subtle">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A list typed as comma-separated text. The text is kept as typed (a trailing comma stays) while
 * the list it means goes to the form; a list changed elsewhere replaces the text.
 */
export function ListField({
  label,
  value,
  onChange,
  error,
  hint,
  placeholder,
}: {
  label: string;
  value: readonly string[];
  onChange(list: string[]): void;
  error?: string | null;
  hint?: ReactNode;
  placeholder?: string;
}) {
  const [text, setText] = useState(value.join(", "));
  useEffect(() => {
    setText((current) =>
      parseList(current).join("\u0000") === value.join("\u0000") ? current : value.join(", "),
    );
  }, [value]);
  return (
    <Field
      label={label}
      value={text}
      placeholder={placeholder}
      error={error}
      hint={hint ?? "Separate entries with commas."}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseList(e.target.value));
      }}
    />
  );
}
