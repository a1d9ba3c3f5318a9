import { getTranslations } from "next-intl/server";
import { maskProxyUrl } from "@/lib/net/proxy-url";
import { ProxyForm } from "./proxy-form";

/**
 * An account's proxy: its own (shown with the password masked), else the global one
 * (CAMPUSWATCH_PROXY, masked too), else none — with the form to set or remove its own (admins only).
 */
export async function AccountProxy({ accountId, display, admin }: { accountId: number; display: string | null; admin: boolean }) {
  const t = await getTranslations("accounts.proxy");
  const raw = process.env.CAMPUSWATCH_PROXY?.trim();
  const globalProxy = raw ? maskProxyUrl(raw) : null;
  return (
    <section className="panel" aria-labelledby="proxy-h" data-testid="account-proxy">
      <h2 id="proxy-h">{t("title")}</h2>
      <p className="help">{t("intro")}</p>
      {display ? (
        <p>
          {t("own")} <code data-testid="proxy-display">{display}</code>
        </p>
      ) : globalProxy ? (
        <p className="muted">{t("global", { proxy: globalProxy })}</p>
      ) : (
        <p className="muted">{t("direct")}</p>
      )}
      {admin && <ProxyForm accountId={accountId} hasProxy={Boolean(display)} />}
    </section>
  );
}
