import { FormStatus } from "./form";

/** The title row of a page: heading, one line of context, and actions on the right. */
export function PageHeader({ title, subtitle, children }: { title: string; subtitle?: React.ReactNode; children?: React.ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle && <div className="muted subtitle">{subtitle}</div>}
      </div>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}

/** A one-line notice after an action ("3 flags confirmed"). */
export function Notice({ children, kind = "ok" }: { children: React.ReactNode; kind?: "ok" | "error" }) {
  // role="status" for errors too: the notice reports an action already done (a redirect's outcome), nothing to interrupt for.
  return <FormStatus message={children} ok={kind === "ok"} role="status" />;
}
