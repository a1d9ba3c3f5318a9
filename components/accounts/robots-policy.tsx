import { getTranslations } from "next-intl/server";
import { Time } from "../time";
import { RobotsPolicyForm } from "./robots-policy-form";

/**
 * The account's robots.txt policy: obeyed (the default), or ignored by whom and since when; admins
 * can change it.
 */
export async function RobotsPolicyPanel({
  accountId,
  policy,
  setBy,
  setAt,
  admin,
}: {
  accountId: number;
  policy: string;
  setBy: string | null;
  setAt: Date | null;
  admin: boolean;
}) {
  const t = await getTranslations("accounts.robots");
  const ignored = policy === "ignore";
  return (
    <section className="panel" aria-labelledby="robots-h" data-testid="robots-policy">
      <h2 id="robots-h">{t("title")}</h2>
      <p>
        <b>{ignored ? t("ignored") : t("obeyed")}</b>
        {ignored && (
          <>
            {" "}
            {t("setBy", { user: setBy ?? "?" })} <Time date={setAt} withYear />
          </>
        )}
      </p>
      <p className="help">{t("help")}</p>
      {admin && <RobotsPolicyForm accountId={accountId} policy={ignored ? "ignore" : "obey"} />}
    </section>
  );
}
