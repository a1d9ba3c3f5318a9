import { useTranslations } from "next-intl";
import { SubmitButton } from "./form";

/**
 * A one-button form that flips a row's on/off setting (an account's `enabled`, a user's
 * `disabled`): the row id and the value to set go as hidden fields to the server action.
 */
export function ToggleForm({
  action,
  id,
  field,
  next,
  label,
  name,
  pending,
}: {
  action: (formData: FormData) => void;
  id: number;
  /** The form field the server action reads. */
  field: string;
  /** The value the click sets. */
  next: boolean;
  /** The button's text ("Disable" / "Enable"); with `name` also its accessible name. */
  label: string;
  /** What the row is called, for screen readers ("Disable 校园生活", "停用 校园生活"). */
  name: string;
  pending: boolean;
}) {
  const t = useTranslations("common");
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name={field} value={String(next)} />
      <SubmitButton className="small secondary" pending={pending} aria-label={t("toggleName", { action: label, name })}>
        {label}
      </SubmitButton>
    </form>
  );
}
