import { SignInForm } from "@/components/sign-in-form";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  return (
    <main className="signin">
      <div className="panel">
        <h1>CampusWatch</h1>
        <p className="muted" style={{ textAlign: "center", marginTop: -8 }}>校园舆情监测 · Sign in to continue</p>
        <SignInForm next={next ?? ""} />
      </div>
    </main>
  );
}
