import type { Command } from "commander";
import { action, intOption, loadDb, UserInputError } from "./util";

/** `campuswatch evidence export | verify | key`: signed evidence packages (取证包). */
export function registerEvidenceCommands(program: Command) {
  const evidence = program.command("evidence").description("signed evidence packages (取证包) of flagged posts and incidents");
  evidence
    .command("export")
    .description("write the evidence package of a post (POST_ID) or of an incident's flagged posts (--incident ID) to a ZIP file")
    .argument("[postId]", "the post's id", intOption("POST_ID", 1))
    .option("--incident <id>", "the incident's id instead of a post", intOption("--incident", 1))
    .requiredOption("--out <file>", "the ZIP file to write (never overwritten)")
    .option("--no-screenshots", "do not start Chromium: include only the screenshots drawn at crawl time")
    .action(
      action(async (postId: number | undefined, o: { incident?: number; out: string; screenshots: boolean }) => {
        if ((postId === undefined) === (o.incident === undefined)) throw new UserInputError("give either a POST_ID or --incident ID");
        const fs = await import("node:fs");
        if (fs.existsSync(o.out)) throw new UserInputError(`${o.out} exists already: choose another --out (packages are never overwritten)`);
        const [db, { buildPostEvidence, buildIncidentEvidence }, { ScreenshotRenderer }, { crawlerConfig }] = await Promise.all([
          loadDb(),
          import("../evidence/build"),
          import("../evidence/screenshot"),
          import("../../lib/config"),
        ]);
        const renderer = o.screenshots ? new ScreenshotRenderer({ chromiumPath: crawlerConfig().chromiumPath, log: (m) => console.warn(m) }) : null;
        try {
          const built = postId !== undefined ? await buildPostEvidence(db, postId, { renderer }) : await buildIncidentEvidence(db, o.incident!, { renderer });
          if (!built) throw new UserInputError(postId !== undefined ? `no post ${postId}` : `no incident ${o.incident}`);
          fs.writeFileSync(o.out, built.zip, { flag: "wx" });
          const m = built.manifest;
          console.log(`wrote ${o.out}: ${m.posts.length} posts, ${m.files.length} files, ${built.zip.length} bytes`);
          for (const p of m.posts) {
            const parts = [`post ${p.postId}`, p.url, p.deletedAt ? `deleted on the platform at ${p.deletedAt}` : null, ...p.notes].filter(Boolean);
            console.log(`  ${parts.join("; ")}`);
          }
          console.log(`signed by ${m.signature.keyFingerprint}`);
        } finally {
          await renderer?.close();
        }
      }),
    );
  evidence
    .command("verify")
    .description("check an evidence package: the manifest's signature and every file's SHA-256; exits 1 and names what changed")
    .argument("<file>", "the ZIP file")
    .option("--key <fingerprint>", "the fingerprint (sha256:…) of the key it must be signed with; default: this install's key, when it has one")
    .option("--json", "print the findings as JSON")
    .action(
      action(async (file: string, o: { key?: string; json?: boolean }) => {
        const fs = await import("node:fs");
        let zip: Buffer;
        try {
          zip = fs.readFileSync(file);
        } catch (e) {
          throw new UserInputError(`cannot read ${file}: ${(e as Error).message}`);
        }
        const [{ verifyEvidencePackage }, { evidenceKeyFile, loadEvidenceKey }] = await Promise.all([
          import("../../lib/evidence/package"),
          import("../../lib/evidence/key"),
        ]);
        // This install's key is compared with, never made, by a check.
        const expected = o.key ?? (fs.existsSync(evidenceKeyFile()) ? loadEvidenceKey().fingerprint : null);
        const r = verifyEvidencePackage(zip, { expectedFingerprint: expected });
        if (o.json) {
          const { manifest: _manifest, ...rest } = r;
          console.log(JSON.stringify(rest, null, 2));
        } else {
          const keyNote =
            r.trustedKey === null ? "no key to compare with" : r.trustedKey ? (o.key ? "the expected key" : "this install's key") : "NOT the expected key";
          if (r.manifestReadable) console.log(`signature: ${r.signature} (key ${r.keyFingerprint}, ${keyNote})`);
          for (const f of r.files) console.log(`${f.status === "ok" ? "ok     " : f.status.toUpperCase().padEnd(7)} ${f.name}`);
          for (const n of r.unlisted) console.log(`ADDED   ${n}`);
          if (r.ok) console.log(`OK: ${file} is intact: ${r.files.length} files match the signed manifest`);
          else {
            console.log(`FAILED: ${file} was altered or damaged:`);
            for (const p of r.problems) console.log(`  - ${p}`);
          }
        }
        if (!r.ok) process.exitCode = 1;
      }),
    );
  evidence
    .command("key")
    .description("print this install's evidence signing key (public half; made on first use), to give to whoever checks packages")
    .action(
      action(async () => {
        const { loadEvidenceKey, evidenceKeyFile } = await import("../../lib/evidence/key");
        const key = loadEvidenceKey();
        console.log(`fingerprint: ${key.fingerprint}`);
        console.log(`public key (Ed25519, SPKI, base64): ${key.publicKeyBase64}`);
        console.log(key.publicKey.export({ type: "spki", format: "pem" }).toString().trimEnd());
        console.log(`private key: ${evidenceKeyFile()} (keep it, and back it up with the database)`);
      }),
    );
}
