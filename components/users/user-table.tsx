import { db } from "@/lib/db";
import { listUsers } from "@/lib/queries/users";
import { UserRowActions } from "./user-forms";
import { Time } from "../time";

/** Every user with their role, reviews and sign-ins, and the admin actions. */
export async function UserTable({ me }: { me: { id: number } }) {
  const users = await listUsers(db);
  return (
      <div className="table-wrap" style={{ marginBottom: 16 }}>
      <table className="data" data-testid="user-table">
        <thead>
          <tr>
            <th>Username</th>
            <th>Role</th>
            <th className="num">Reviews</th>
            <th>Created</th>
            <th>Last sign-in</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>
                <b>{u.username}</b> {u.id === me.id && <span className="badge">you</span>}{" "}
                {u.disabledAt && (
                  <span className="badge warn" title="Cannot sign in; their review decisions keep their name">
                    disabled
                  </span>
                )}
              </td>
              <td>
                <span className={`badge ${u.role === "admin" ? "info" : ""}`}>{u.role}</span>
              </td>
              <td className="num">{u._count.reviews.toLocaleString("en-US")}</td>
              <td>
                <Time date={u.createdAt} />
              </td>
              <td>
                <Time date={u.lastSignInAt} />
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
