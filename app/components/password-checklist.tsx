import { Check, Circle } from "lucide-react";
import {
  COMMON_PASSWORD_HINT,
  checkPassword,
  PASSWORD_RULE_TEXT,
  type PasswordFailure,
} from "../../core/index.ts";
import { cx } from "./ui/cx.ts";

const RULES = Object.keys(PASSWORD_RULE_TEXT) as PasswordFailure[];

/**
 * Live password-policy checklist (spec §5: 8+ characters, lowercase, uppercase, number, symbol),
 * from core's rules; the list of common passwords is checked by the server, so it is only named.
 */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const { failures } = checkPassword(password);
  return (
    <div id={id} className="mt-2">
      <ul aria-label="Password requirements" className="grid gap-1 text-xs sm:grid-cols-2">
        {RULES.map((rule) => {
          const met = password.length > 0 && !failures.includes(rule);
          return (
            <li
              key={rule}
              className={cx("flex items-center gap-1.5", met ? "text-ok-text" : "text-ink-subtle")}
            >
              {met ? (
                <Check aria-hidden="true" className="size-3.5" />
              ) : (
                <Circle aria-hidden="true" className="size-3" />
              )}
              {PASSWORD_RULE_TEXT[rule]}
              <span className="sr-only">{met ? " (met)" : " (not met)"}</span>
            </li>
          );
        })}
      </ul>
      <p className="mt-1 text-xs text-ink-subtle">{COMMON_PASSWORD_HINT}</p>
    </div>
  );
}
