import { requirePermission } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { formatTime } from "@/lib/format";

export const metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  await requirePermission("manage-users");
  const users = await db.user.findMany({ orderBy: { id: "asc" }, select: { id: true, username: true, role: true, createdAt: true, lastSignInAt: true } });
  return (
    <>
      <h1>Users</h1>
      <table className="data">
        <thead><tr><th>Username</th><th>Role</th><th>Created</th><th>Last sign-in</th></tr></thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>{u.username}</td>
              <td><span className={`badge ${u.role === "admin" ? "info" : ""}`}>{u.role}</span></td>
              <td>{formatTime(u.createdAt)}</td>
              <td>{formatTime(u.lastSignInAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
