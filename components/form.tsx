/**
 * What every dashboard form shares: the message its action answered ({@link FormStatus}) and its
 * submit button ({@link SubmitButton}). One place decides the classes and roles, so an error is
 * announced the same way on every page and the browser tests find it by role.
 *
 * No hooks here: each form keeps its own `useActionState` and passes `pending` and the message in.
 */
import type { ButtonHTMLAttributes, ReactNode } from "react";

/** Props of {@link FormStatus}. */
export interface FormStatusProps {
  /** The text to show; nothing is rendered without one. */
  message?: ReactNode;
  /** Good news (`.form-ok`, role="status") rather than an error (`.form-error`, role="alert"). */
  ok?: boolean;
  /** A short message beside a button (`span.inline-ok` / `span.inline-error`) instead of a block. */
  inline?: boolean;
  /**
   * The ARIA role when the default (status for ok, alert for an error) is not wanted: "status"
   * for a message that should not interrupt, null for none.
   */
  role?: "alert" | "status" | null;
}

/** A form's outcome: an error read out at once (role="alert") or a confirmation (role="status"). */
export function FormStatus({ message, ok = false, inline = false, role }: FormStatusProps) {
  if (!message) return null;
  const resolvedRole = role === undefined ? (ok ? "status" : "alert") : (role ?? undefined);
  if (inline) {
    return (
      <span className={ok ? "inline-ok" : "inline-error"} role={resolvedRole}>
        {message}
      </span>
    );
  }
  return (
    <div className={ok ? "form-ok" : "form-error"} role={resolvedRole}>
      {message}
    </div>
  );
}

/** Props of {@link SubmitButton}: a button's own attributes, plus the form's pending state. */
export interface SubmitButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> {
  /** The form's action is running: the button is disabled (no double submit). */
  pending: boolean;
  /** What the button says while pending ("Starting…"); its children otherwise and by default. */
  pendingLabel?: ReactNode;
}

/** A form's submit button, disabled while the action runs (and whenever `disabled` says so). */
export function SubmitButton({ pending, pendingLabel, disabled, children, ...rest }: SubmitButtonProps) {
  return (
    <button type="submit" {...rest} disabled={pending || Boolean(disabled)}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
