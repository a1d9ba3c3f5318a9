import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { requirePermission } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { can } from "@/lib/permissions";
import { listApiTokens } from "@/lib/api-tokens";
import { PageHeader } from "@/components/page-header";
import { Time } from "@/components/time";
import { NewTokenForm, RevokeTokenForm } from "@/components/tokens/token-forms";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("tokens");
  return { title: t("title") };
}

/** The signed-in user's API tokens (an admin may list everyone's with ?all=1): create, list, revoke. */
export default async function TokensPage({ searchParams }: { searchParams: Promise<{ all?: string }> }) {
  const me = await requirePermission("read");
  const sp = await searchParams;
  const all = sp.all === "1" && me.role === "admin";
  const [t, tokens] = await Promise.all([getTranslations("tokens"), listApiTokens(db, all ? undefined : me.id)]);
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")}>
        {me.role === "admin" && !all && (
          <Link className="button secondary" href="/tokens?all=1">
            {t("all")}
          </Link>
        )}
      </PageHeader>
      <section className="panel" aria-labelledby="new-token-h">
        <h2 id="new-token-h">{t("new.heading")}</h2>
        <NewTokenForm canReview={can(me.role, "review")} />
      </section>
      {tokens.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="token-table">
            <thead>
              <tr>
                <th>{t("table.name")}</th>
                {all && <th>{t("table.owner")}</th>}
                <th>{t("table.prefix")}</th>
                <th>{t("table.scope")}</th>
                <th>{t("table.created")}</th>
                <th>{t("table.expires")}</th>
                <th>{t("table.lastUsed")}</th>
                <th>{t("table.state")}</th>
                <th>{t("table.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((tok) => {
                const state = tok.state;
                return (
                  <tr key={tok.id} data-state={state}>
                    <td>{tok.name}</td>
                    {all && <td>{tok.username}</td>}
                    <td>
                      <code>{tok.prefix}…</code>
                    </td>
                    <td>{tok.scope}</td>
                    <td>
                      <Time date={tok.createdAt} />
                    </td>
                    <td>{tok.expiresAt ? <Time date={tok.expiresAt} /> : t("table.never")}</td>
                    <td>{tok.lastUsedAt ? <Time date={tok.lastUsedAt} /> : t("table.never")}</td>
                    <td>
                      <span className={`badge ${state === "active" ? "ok" : "warn"}`}>{t(`state.${state}`)}</span>
                    </td>
                    <td>{state === "active" && <RevokeTokenForm id={tok.id} name={tok.name} />}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
