import { getTranslations } from "next-intl/server";
import { db } from "@/lib/db";
import { listUsers } from "@/server/users";
import { topicChoices } from "@/server/choices";
import { isRole } from "@/lib/auth/session";
import { UserRowActions, UserTopicsForm } from "./user-forms";
import { scopeFromRows } from "@/lib/topic-scope";
import { Num, Time } from "../time";

/** Every user with their role, reviews and sign-ins, and the admin actions. */
export async function UserTable({ me }: { me: { id: number } }) {
  const [users, topics, t, roles] = await Promise.all([listUsers(db), topicChoices(db), getTranslations("users.table"), getTranslations("roles")]);
  const topicName = new Map(topics.map((topic) => [topic.id, topic.name]));
  return (
    <div className="table-wrap" style={{ marginBottom: 16 }}>
      <table className="data" data-testid="user-table">
        <thead>
          <tr>
            <th>{t("username")}</th>
            <th>{t("role")}</th>
            <th className="num">{t("reviews")}</th>
            <th>{t("created")}</th>
            <th>{t("lastSignIn")}</th>
            <th>{t("topics")}</th>
            <th>{t("actions")}</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>
                <b>{u.username}</b> {u.id === me.id && <span className="badge">{t("you")}</span>}{" "}
                {u.disabledAt && (
                  <span className="badge warn" title={t("disabledHint")}>
                    {t("disabled")}
                  </span>
                )}
              </td>
              <td>
                <span className={`badge ${u.role === "admin" ? "info" : ""}`}>{isRole(u.role) ? roles(u.role) : u.role}</span>
              </td>
              <td className="num">
                <Num value={u._count.reviews} />
              </td>
              <td>
                <Time date={u.createdAt} />
              </td>
              <td>
                <Time date={u.lastSignInAt} />
              </td>
              <td data-testid={`user-scope-${u.id}`}>
                {scopeFromRows(u.topicScope)
                  ?.map((id) => topicName.get(id) ?? `#${id}`)
                  .join(", ") ?? <span className="muted">{t("allTopics")}</span>}
                {topics.length > 0 && <UserTopicsForm id={u.id} username={u.username} topics={topics} scope={scopeFromRows(u.topicScope)} />}
              </td>
              <td>
                <UserRowActions id={u.id} username={u.username} role={u.role} self={u.id === me.id} disabled={Boolean(u.disabledAt)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
