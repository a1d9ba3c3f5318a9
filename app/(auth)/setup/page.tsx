import Link from "next/link";
import { db } from "@/lib/db";
import { setupLinkState } from "@/lib/auth/setup";
import { SetupForm } from "@/components/setup-form";

export const metadata = { title: "First admin" };
export const dynamic = "force-dynamic";

/**
 * The one-time first-admin page. Public (there is nobody to sign in yet), so it shows a form only
 * for a valid, unused token while the database has no user; anything else gets a refusal.
 */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : undefined;
  const state = await setupLinkState(db, token);
  return (
    <main className="signin">
      <div className="panel">
        <h1>CampusWatch</h1>
        {state === "valid" && (
          <>
            <p className="muted">Create the first administrator. This link works once.</p>
            <SetupForm token={token!} />
          </>
        )}
        {state === "done" && (
          <p role="alert">
            CampusWatch is already set up. <Link href="/sign-in">Sign in</Link>; an admin adds more users on the Users page.
          </p>
        )}
        {state === "invalid" && (
          <p role="alert">
            This setup link is not valid: it was used already or is unknown. Restart <code>campuswatch serve</code> (or{" "}
            <code>run</code>) to print a new one, or create an admin with <code>campuswatch user add</code>.
          </p>
        )}
      </div>
    </main>
  );
}
