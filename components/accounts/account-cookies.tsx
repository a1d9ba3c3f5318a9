import { getTranslations } from "next-intl/server";
import type { CookieSummary } from "@/lib/cookies/import";
import { Time } from "../time";
import { CookieForms } from "./cookie-forms";

/**
 * An account's login cookies: which domains they are for and when they expire (never their
 * values), with the forms to replace or forget them (admins only).
 */
export async function AccountCookies({
  accountId,
  summary,
  setAt,
  admin,
}: {
  accountId: number;
  summary: CookieSummary[];
  setAt: Date | null;
  admin: boolean;
}) {
  const t = await getTranslations("accounts.cookies");
  return (
    <section className="panel" aria-labelledby="cookies-h" data-testid="account-cookies">
      <h2 id="cookies-h">{t("title")}</h2>
      <p className="help">{t("intro")}</p>
      {summary.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <table className="compact">
          <thead>
            <tr>
              <th>{t("domain")}</th>
              <th>{t("count")}</th>
              <th>{t("expires")}</th>
            </tr>
          </thead>
          <tbody>
            {summary.map((s) => (
              <tr key={s.domain}>
                <td>
                  <code>{s.domain}</code>
                </td>
                <td>{s.count}</td>
                <td>{s.expiresAt ? <Time date={new Date(s.expiresAt)} withYear /> : t("session")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {setAt && (
        <p className="small muted">
          {t("setAt")} <Time date={setAt} withYear />
        </p>
      )}
      {admin && <CookieForms accountId={accountId} hasCookies={summary.length > 0} />}
    </section>
  );
}
